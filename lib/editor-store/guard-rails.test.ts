import { describe, expect, it } from 'vitest';
import { PlanDocument, setPositions } from '@/lib/plan';
import { guardMessage, saveWouldVoid } from './approval-guard';
import { createEditorStore, NUDGE_BURST_MS } from './editor-store';

function setup() {
  const doc = setPositions(
    PlanDocument.parse({
      plan: {
        planned_tasks: [
          { task_id: 'fetch', description: 'Fetch', execution_type: 'tool' },
          { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
        ],
      },
    }),
    { fetch: { x: 0, y: 0 }, summarise: { x: 300, y: 0 } },
  );
  const store = createEditorStore({ planId: 'p1', revision: 3, doc, readOnly: false, approval: { status: 'approved', revision: 3, approvers: ['approver'] } });
  return { store, history: () => store.temporal.getState(), at: (id: string) => store.getState().doc.view.positions[id] };
}

describe('arrow-key nudges', () => {
  it('makes one undo step of a burst and a new one after a pause', () => {
    const { store, history, at } = setup();
    store.getState().select(['fetch', 'summarise']);
    store.getState().nudgeSelection(10, 0, 1000);
    store.getState().nudgeSelection(10, 0, 1200);
    store.getState().nudgeSelection(0, 50, 1600);
    expect(at('fetch')).toEqual({ x: 20, y: 50 });
    expect(at('summarise')).toEqual({ x: 320, y: 50 });
    expect(history().pastStates).toHaveLength(1);

    store.getState().nudgeSelection(10, 0, 1600 + NUDGE_BURST_MS);
    expect(history().pastStates).toHaveLength(2);
    history().undo();
    expect(at('fetch')).toEqual({ x: 20, y: 50 });
    history().undo();
    expect(at('fetch')).toEqual({ x: 0, y: 0 });
  });

  it('starts a new step when another edit came between presses', () => {
    const { store, history } = setup();
    store.getState().select(['fetch']);
    store.getState().nudgeSelection(10, 0, 1000);
    store.getState().updateTask('fetch', { description: 'Fetch all' });
    store.getState().nudgeSelection(10, 0, 1100);
    expect(history().pastStates).toHaveLength(3);
  });
});

describe('the approval guard', () => {
  it('asks only when content changed, not for a layout-only save', () => {
    const { store } = setup();
    const { approval, savedDoc } = store.getState();
    store.getState().moveTasks({ fetch: { x: 5, y: 5 } });
    expect(saveWouldVoid(approval, store.getState().doc, savedDoc)).toBe(false);
    store.getState().updateTask('fetch', { description: 'Fetch all' });
    expect(saveWouldVoid(approval, store.getState().doc, savedDoc)).toBe(true);
    store.getState().updateTask('fetch', { description: 'Fetch' });
    expect(saveWouldVoid(approval, store.getState().doc, savedDoc)).toBe(false);
  });

  it('survives a layout-only save and goes with a content save', () => {
    const { store } = setup();
    store.getState().markSaved(4, store.getState().doc, { layoutOnly: true });
    expect(store.getState().approval).not.toBeNull();
    store.getState().markSaved(5, store.getState().doc, { layoutOnly: false });
    expect(store.getState().approval).toBeNull();
  });

  it('says who approved, or that the plan is in review', () => {
    expect(guardMessage({ status: 'approved', revision: 3, approvers: ['ann', 'bo'] })).toBe('Approved by ann and bo at r3; saving will void the approval');
    expect(guardMessage({ status: 'in_review', revision: 2 })).toBe('In review at r2; saving will withdraw it from review');
  });
});

describe('JSON drafts', () => {
  it('keeps a draft per task and field until it is forgotten, without an undo step', () => {
    const { store, history } = setup();
    store.getState().setJsonDraft('fetch', 'parameters', { text: '{ "limit": ', error: 'Not valid JSON' });
    store.getState().setJsonDraft('summarise', 'arguments', { text: '[', error: 'Not valid JSON' });
    expect(Object.keys(store.getState().jsonDrafts)).toHaveLength(2);
    store.getState().setJsonDraft('fetch', 'parameters', null);
    expect(Object.values(store.getState().jsonDrafts)).toEqual([{ text: '[', error: 'Not valid JSON' }]);
    expect(history().pastStates).toHaveLength(0);
  });
});
