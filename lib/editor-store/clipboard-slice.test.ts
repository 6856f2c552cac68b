import { describe, expect, it } from 'vitest';
import { openEditor } from './test-editor';

// fetch at (0, 0) → summarise at (300, 0), and review on its own.
const open = () => openEditor({ tasks: { fetch: [], summarise: ['fetch'], review: ['summarise'] } });

describe('copySelection', () => {
  it('says how many tasks it copied and changes nothing', () => {
    const editor = open().click('fetch', 'summarise').press('Ctrl+C');
    expect(editor.notice).toEqual({ kind: 'info', message: 'Copied 2 tasks', taskIds: [] });
    expect(editor.state.clipboard?.tasks.map((t) => t.task_id)).toEqual(['fetch', 'summarise']);
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });

  it('copies nothing, and says nothing, with no task selected', () => {
    const editor = open().press('Ctrl+C');
    expect(editor.state.clipboard).toBeNull();
    expect(editor.notice).toBeNull();
  });
});

describe('paste', () => {
  it('adds copies under new ids, offset, selected, with the edges among them, as one undo step', () => {
    const editor = open().click('fetch', 'summarise').press('Ctrl+C').press('Ctrl+V');
    // The edge to review, outside the copy, is not copied.
    expect(editor.dependencies).toMatchObject({ 'fetch-copy': [], 'summarise-copy': ['fetch-copy'], review: ['summarise'] });
    expect(editor.position('summarise-copy')).toEqual({ x: 340, y: 40 });
    expect(editor.selected).toEqual(['fetch-copy', 'summarise-copy']);
    expect(editor.undoSteps).toBe(1);
    editor.press('Ctrl+Z');
    expect(editor.taskIds).toEqual(['fetch', 'summarise', 'review']);
  });

  it('pastes again under further fresh ids', () => {
    const editor = open().click('review').press('Ctrl+C').press('Ctrl+V').press('Ctrl+V');
    expect(editor.taskIds).toEqual(['fetch', 'summarise', 'review', 'review-copy', 'review-copy-2']);
  });

  it('pastes nothing before anything was copied', () => {
    const editor = open().click('fetch').press('Ctrl+V');
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });
});

describe('duplicateSelection', () => {
  it('adds copies of the selected tasks without touching the clipboard, as one undo step', () => {
    const editor = open().click('summarise').press('Ctrl+D');
    expect(editor.dependencies['summarise-copy']).toEqual([]);
    expect(editor.selected).toEqual(['summarise-copy']);
    expect(editor.state.clipboard).toBeNull();
    expect(editor.undoSteps).toBe(1);
  });
});
