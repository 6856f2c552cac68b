import { describe, expect, it } from 'vitest';
import { NUDGE_BURST_MS } from './editor-store';
import { openEditor } from './test-editor';
import { planPatch } from './save-patch';

// fetch at (0, 0) → summarise at (300, 0).
const open = (options: { readOnly?: boolean } = {}) => openEditor({ tasks: { fetch: [], summarise: ['fetch'] }, ...options });

describe('moveTasks', () => {
  it('drops a dragged task where it was let go, as one undo step', () => {
    const editor = open().drag('fetch', { x: 40, y: 120 });
    expect(editor.position('fetch')).toEqual({ x: 40, y: 120 });
    expect(editor).toMatchObject({ dirty: true, undoSteps: 1 });
    editor.press('Ctrl+Z');
    expect(editor.position('fetch')).toEqual({ x: 0, y: 0 });
    expect(editor.dirty).toBe(false);
  });

  it('moves the other selected tasks along by the same distance', () => {
    const editor = open().click('fetch', 'summarise').drag('summarise', { x: 310, y: 50 });
    expect(editor.position('fetch')).toEqual({ x: 10, y: 50 });
    expect(editor.position('summarise')).toEqual({ x: 310, y: 50 });
    expect(editor.undoSteps).toBe(1);
  });

  it('makes no step for a drag back to where the task was', () => {
    const editor = open().drag('fetch', { x: 0, y: 0 });
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
  });
});

describe('nudgeSelection', () => {
  it('moves the selected tasks 10 px per arrow press, 50 with Shift', () => {
    const editor = open().click('fetch', 'summarise').press('ArrowRight').press('Shift+ArrowDown');
    expect(editor.position('fetch')).toEqual({ x: 10, y: 50 });
    expect(editor.position('summarise')).toEqual({ x: 310, y: 50 });
  });

  it('makes one undo step of a burst of presses and a new one after a pause', () => {
    const editor = open().click('fetch');
    editor.press('ArrowRight').wait(200).press('ArrowRight').wait(400).press('ArrowDown');
    expect(editor.position('fetch')).toEqual({ x: 20, y: 10 });
    expect(editor.undoSteps).toBe(1);

    editor.wait(NUDGE_BURST_MS).press('ArrowLeft');
    expect(editor.undoSteps).toBe(2);
    editor.press('Ctrl+Z');
    expect(editor.position('fetch')).toEqual({ x: 20, y: 10 });
    editor.press('Ctrl+Z');
    expect(editor.position('fetch')).toEqual({ x: 0, y: 0 });
  });

  it('starts a new step when another edit came between presses', () => {
    const editor = open().click('fetch').press('ArrowRight');
    editor.fill('description', 'Fetch all');
    editor.press('ArrowRight');
    expect(editor.undoSteps).toBe(3);
  });

  it('moves nothing without a selection or on a read-only revision', () => {
    expect(open().press('ArrowRight').undoSteps).toBe(0);
    const readOnly = open({ readOnly: true }).click('fetch').press('ArrowRight');
    expect(readOnly.position('fetch')).toEqual({ x: 0, y: 0 });
  });
});

describe('applyLayout', () => {
  it('places a plan opened without positions with neither an undo step nor unsaved changes', () => {
    const editor = openEditor({ tasks: { fetch: [], summarise: ['fetch'] }, positions: 'none' });
    editor.state.applyLayout({ fetch: { x: 0, y: 0 }, summarise: { x: 300, y: 0 } }, { undoable: false });
    expect(editor.position('summarise')).toEqual({ x: 300, y: 0 });
    expect(editor).toMatchObject({ dirty: false, undoSteps: 0 });
    // Not stored yet, though: the next save's change carries the first layout.
    editor.click('fetch').fill('description', 'Fetch it');
    expect(planPatch(editor.state.storedDoc, editor.doc, [])?.positions).toEqual({ fetch: { x: 0, y: 0 }, summarise: { x: 300, y: 0 } });
  });

  it('makes a late first layout an undo step when the operator edited before it arrived', () => {
    const editor = openEditor({ tasks: { fetch: [], summarise: ['fetch'] }, positions: 'none' }).click('fetch');
    editor.fill('description', 'Fetch it');
    editor.state.applyLayout({ fetch: { x: 5, y: 5 } }, { undoable: false });
    expect(editor.undoSteps).toBe(2);
    editor.press('Ctrl+Z');
    expect(editor.position('fetch')).toBeUndefined();
    expect(editor.task('fetch')?.description).toBe('Fetch it');
  });

  it('makes Tidy an undo step and an unsaved change', () => {
    const editor = open();
    editor.state.applyLayout({ fetch: { x: 0, y: 100 }, summarise: { x: 0, y: 300 } }, { undoable: true });
    expect(editor.position('summarise')).toEqual({ x: 0, y: 300 });
    expect(editor).toMatchObject({ dirty: true, undoSteps: 1 });
  });
});
