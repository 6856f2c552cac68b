import { describe, expect, it } from 'vitest';
import { openEditor } from './test-editor';

// fetch → summarise, and review on its own.
const open = (options: { readOnly?: boolean } = {}) => openEditor({ tasks: { fetch: [], summarise: ['fetch'], review: [] }, ...options });

describe('addTask', () => {
  it('adds a new task where the pane was double-clicked, selected, as one undo step', () => {
    const editor = open();
    expect(editor.doubleClickPane({ x: 120, y: 80 })).toBe('task-4');
    expect(editor.task('task-4')).toMatchObject({ description: 'New task', execution_type: 'agent', dependencies: [] });
    expect(editor.position('task-4')).toEqual({ x: 120, y: 80 });
    expect(editor.selected).toEqual(['task-4']);
    expect(editor).toMatchObject({ dirty: true, undoSteps: 1 });
    editor.press('Ctrl+Z');
    expect(editor.taskIds).toEqual(['fetch', 'summarise', 'review']);
    expect(editor.dirty).toBe(false);
  });

  it('never reuses a task id that is taken', () => {
    const editor = openEditor({ tasks: { 'task-2': [], other: [] } });
    expect(editor.doubleClickPane({ x: 0, y: 0 })).toBe('task-3');
    expect(editor.doubleClickPane({ x: 0, y: 0 })).toBe('task-4');
    editor.state.addTask({ task_id: 'task-5' });
    expect(editor.doubleClickPane({ x: 0, y: 0 })).toBe('task-6');
    expect(editor.undoSteps).toBe(4);
  });

  it('adds nothing to a read-only revision', () => {
    const editor = open({ readOnly: true });
    expect(editor.doubleClickPane({ x: 0, y: 0 })).toBeNull();
    expect(editor.taskIds).toHaveLength(3);
  });
});

describe('updateTask', () => {
  it('applies what was typed when the field is left, as one undo step', () => {
    const editor = open().click('review');
    expect(editor.fill('description', 'Review the summary')).toBeNull();
    expect(editor.task('review')?.description).toBe('Review the summary');
    expect(editor).toMatchObject({ dirty: true, undoSteps: 1 });
    editor.press('Ctrl+Z');
    expect(editor.task('review')?.description).toBe('review');
    editor.press('Ctrl+Shift+Z');
    expect(editor.task('review')?.description).toBe('Review the summary');
  });

  it('makes no step when the field is left unchanged', () => {
    const editor = open().click('fetch');
    editor.fill('description', 'fetch');
    editor.fillJson('parameters', '{}');
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });

  it('answers an invalid change with the reason shown beside the field, and keeps the task', () => {
    const editor = open().click('fetch');
    expect(editor.fillJson('parameters', '[1, 2]')).toMatch(/\(parameters\)$/);
    expect(editor.state.updateTask('fetch', { mark_replan: 'yes' as never })).toMatch(/\(mark_replan\)$/);
    expect(editor.task('fetch')).toMatchObject({ parameters: {}, mark_replan: false });
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });

  it('refuses a dependency that would close a cycle, as the canvas does, and keeps the task', () => {
    const editor = open().click('fetch');
    expect(editor.state.updateTask('fetch', { dependencies: ['review', 'summarise'] })).toMatch(/^Would create a cycle: /);
    expect(editor.task('fetch')?.dependencies).toEqual([]);
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
    expect(editor.state.updateTask('fetch', { dependencies: ['review'] })).toBeNull();
    expect(editor.task('fetch')?.dependencies).toEqual(['review']);
  });

  it('says a read-only revision cannot be changed', () => {
    const editor = open({ readOnly: true }).click('fetch');
    expect(editor.fill('description', 'Fetch all')).toBe('This revision is read-only');
    expect(editor.task('fetch')?.description).toBe('fetch');
  });
});

describe('deleteTasks', () => {
  it('deletes tasks with their edges and clears the selection, as one undo step', () => {
    const editor = open().click('fetch');
    editor.state.deleteTasks(['fetch', 'review']);
    expect(editor.dependencies).toEqual({ summarise: [] });
    expect(editor.selected).toEqual([]);
    expect(editor.undoSteps).toBe(1);
    editor.press('Ctrl+Z');
    expect(editor.dependencies).toEqual({ fetch: [], summarise: ['fetch'], review: [] });
  });

  it('does nothing when no task is named', () => {
    const editor = open();
    editor.state.deleteTasks([]);
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });
});

describe('connect', () => {
  it('makes the target wait on the source, as one undo step', () => {
    const editor = open();
    expect(editor.connect('summarise', 'review')).toBe(true);
    expect(editor.dependencies.review).toEqual(['summarise']);
    expect(editor).toMatchObject({ dirty: true, undoSteps: 1 });
    editor.press('Ctrl+Z');
    expect(editor.dependencies.review).toEqual([]);
  });

  it('refuses a cycle with a notice naming it, and changes nothing', () => {
    const editor = open();
    const before = editor.doc;
    expect(editor.connect('summarise', 'fetch')).toBe(false);
    expect(editor.doc).toBe(before);
    expect(editor.notice).toEqual({ kind: 'refusal', message: 'Would create a cycle: summarise → fetch → summarise', taskIds: ['summarise', 'fetch', 'summarise'] });
    expect(editor.undoSteps).toBe(0);
  });

  it('refuses an edge that is already there', () => {
    const editor = open();
    expect(editor.connect('fetch', 'summarise')).toBe(false);
    expect(editor.notice?.kind).toBe('refusal');
    expect(editor.undoSteps).toBe(0);
  });

  it('connects nothing on a read-only revision', () => {
    const editor = open({ readOnly: true });
    expect(editor.connect('summarise', 'review')).toBe(false);
    expect(editor.dependencies.review).toEqual([]);
  });
});

describe('moveEdge', () => {
  it('moves an edge to other tasks, as one undo step', () => {
    const editor = open();
    expect(editor.reconnect(['fetch', 'summarise'], ['fetch', 'review'])).toBe(true);
    expect(editor.dependencies).toEqual({ fetch: [], summarise: [], review: ['fetch'] });
    expect(editor.undoSteps).toBe(1);
    editor.press('Ctrl+Z');
    expect(editor.dependencies).toEqual({ fetch: [], summarise: ['fetch'], review: [] });
  });

  it('refuses a move that would close a cycle, and one back onto the same tasks', () => {
    const editor = openEditor({ tasks: { a: [], b: ['a'], c: ['b'] } });
    expect(editor.reconnect(['a', 'b'], ['c', 'b'])).toBe(false);
    expect(editor.notice).toMatchObject({ kind: 'refusal', message: expect.stringMatching(/cycle/) });
    expect(editor.reconnect(['a', 'b'], ['a', 'b'])).toBe(false);
    expect(editor.dependencies).toEqual({ a: [], b: ['a'], c: ['b'] });
    expect(editor.undoSteps).toBe(0);
  });
});

describe('removeEdge', () => {
  it('removes one edge and its selection, as one undo step', () => {
    const editor = open().clickEdge('fetch', 'summarise');
    editor.state.removeEdge('fetch', 'summarise');
    expect(editor.dependencies.summarise).toEqual([]);
    expect(editor.state.selectedEdgeId).toBeNull();
    expect(editor.undoSteps).toBe(1);
  });

  it('shows an error for an edge that is not there', () => {
    const editor = open();
    editor.state.removeEdge('review', 'fetch');
    expect(editor.notice).toMatchObject({ kind: 'error', message: 'task "fetch" does not depend on "review"' });
    expect(editor.undoSteps).toBe(0);
  });
});

describe('deleteElements', () => {
  it('deletes the selected task with its edges on the delete key, as one undo step', () => {
    const editor = open().click('fetch').press('Delete');
    expect(editor.dependencies).toEqual({ summarise: [], review: [] });
    expect(editor.undoSteps).toBe(1);
    editor.press('Ctrl+Z');
    expect(editor.dependencies).toEqual({ fetch: [], summarise: ['fetch'], review: [] });
  });

  it('deletes a selected edge on the delete key', () => {
    const editor = open().clickEdge('fetch', 'summarise').press('Delete');
    expect(editor.dependencies).toEqual({ fetch: [], summarise: [], review: [] });
    expect(editor.undoSteps).toBe(1);
  });

  it('deletes tasks and edges together as one step', () => {
    const editor = openEditor({ tasks: { a: [], b: ['a'], c: ['b'] } });
    editor.state.deleteElements(['a'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }]);
    expect(editor.dependencies).toEqual({ b: [], c: [] });
    expect(editor.undoSteps).toBe(1);
  });

  it('does nothing with nothing selected', () => {
    const editor = open().press('Delete');
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });
});
