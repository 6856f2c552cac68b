import { describe, expect, it } from 'vitest';
import { openEditor } from './test-editor';

// What holds across the slices: the document is the one thing undo tracks, one step per
// command, and a read-only revision takes no edit at all.

const TASKS = { fetch: [], summarise: ['fetch'], review: [] };

describe('the editor store', () => {
  it('makes each edit one undo step, and undoes and redoes them in order', () => {
    const editor = openEditor({ tasks: TASKS }).click('review');
    editor.connect('summarise', 'review');
    editor.fill('description', 'Review the summary');
    editor.drag('review', { x: 600, y: 200 });
    expect(editor.undoSteps).toBe(3);

    editor.press('Ctrl+Z');
    expect(editor.position('review')).toEqual({ x: 600, y: 0 });
    editor.press('Ctrl+Z');
    expect(editor.task('review')?.description).toBe('review');
    editor.press('Ctrl+Z');
    expect(editor.dependencies.review).toEqual([]);
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0, redoSteps: 3 });

    editor.press('Ctrl+Y').press('Ctrl+Shift+Z');
    expect(editor.task('review')).toMatchObject({ dependencies: ['summarise'], description: 'Review the summary' });
    expect(editor.redoSteps).toBe(1);
  });

  it('keeps selection, notices, the clipboard and collapsing out of the history', () => {
    const editor = openEditor({ tasks: TASKS, groups: { a: ['fetch', 'summarise'], b: ['review'] } });
    editor.click('fetch').shiftClick('summarise').press('Ctrl+C').clickEdge('fetch', 'summarise').press('Escape');
    editor.state.toggleCollapsed('a');
    editor.state.setNotice({ kind: 'info', message: 'Hello', taskIds: [] });
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });

  it('takes no edit on a read-only revision', () => {
    const editor = openEditor({ tasks: TASKS, groups: { a: ['fetch', 'summarise'], b: ['review'] }, readOnly: true });
    const before = editor.doc;
    editor.click('fetch');
    editor.doubleClickPane({ x: 0, y: 0 });
    editor.fill('description', 'Fetch all');
    editor.connect('summarise', 'review');
    editor.reconnect(['fetch', 'summarise'], ['review', 'summarise']);
    editor.drag('fetch', { x: 50, y: 50 });
    editor.press('ArrowRight').press('Ctrl+C').press('Ctrl+V').press('Ctrl+D');
    editor.dropInto('b', 'summarise', { x: 0, y: 0 });
    editor.state.removeEdge('fetch', 'summarise');
    editor.state.deleteTasks(['review']);
    editor.state.applyLayout({ fetch: { x: 9, y: 9 } }, { undoable: true });
    editor.state.splitSelection();
    editor.click('fetch', 'review');
    editor.state.mergeSelection();
    editor.state.applyGrouping([], 'none');
    editor.state.clearSubgraphs();
    editor.press('Delete');
    expect(editor.doc).toBe(before);
    expect(editor.undoSteps).toBe(0);
  });
});
