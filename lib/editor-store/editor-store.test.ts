import { describe, expect, it } from 'vitest';
import { PlanDocument } from '@/lib/plan';
import { createEditorStore } from './editor-store';

function setup() {
  const doc = PlanDocument.parse({
    plan: {
      planned_tasks: [
        { task_id: 'fetch', description: 'Fetch', execution_type: 'tool' },
        { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
        { task_id: 'review', description: 'Review', execution_type: 'agent' },
      ],
    },
  });
  const store = createEditorStore({ planId: 'p1', revision: 3, doc, readOnly: false });
  const deps = () => Object.fromEntries(store.getState().doc.plan.planned_tasks.map((t) => [t.task_id, t.dependencies]));
  const history = () => store.temporal.getState();
  return { store, deps, history };
}

describe('editor store', () => {
  it('makes each command one undo step and redoes it', () => {
    const { store, deps, history } = setup();
    expect(store.getState().connect('summarise', 'review')).toBe(true);
    store.getState().updateTask('review', { description: 'Review the summary' });
    expect(deps().review).toEqual(['summarise']);
    expect(history().pastStates).toHaveLength(2);

    history().undo();
    expect(store.getState().doc.plan.planned_tasks[2].description).toBe('Review');
    history().undo();
    expect(deps().review).toEqual([]);
    expect(store.getState().doc).toBe(store.getState().savedDoc);
    history().redo();
    expect(deps().review).toEqual(['summarise']);
  });

  it('remembers the revision it saved itself, which a loaded revision is not', () => {
    const { store } = setup();
    expect(store.getState().savedHere).toBeNull();
    store.getState().updateTask('review', { description: 'Review it' });
    store.getState().markSaved(4, store.getState().doc);
    expect(store.getState()).toMatchObject({ savedHere: 4, baseRevision: 4 });
    store.getState().loadRevision(store.getState().doc, 5);
    expect(store.getState()).toMatchObject({ savedHere: 4, baseRevision: 5 });
  });

  it('refuses a cycle with a notice naming it and changes nothing', () => {
    const { store, history } = setup();
    const before = store.getState().doc;
    expect(store.getState().connect('summarise', 'fetch')).toBe(false);
    expect(store.getState().doc).toBe(before);
    expect(store.getState().notice).toEqual({
      kind: 'refusal',
      message: 'Would create a cycle: Summarise → Fetch → Summarise',
      taskIds: ['summarise', 'fetch', 'summarise'],
    });
    expect(history().pastStates).toHaveLength(0);
  });

  it('keeps selection and first layout out of the history and the unsaved state', () => {
    const { store, history } = setup();
    store.getState().select(['fetch']);
    store.getState().applyLayout({ fetch: { x: 0, y: 0 } }, { undoable: false });
    expect(history().pastStates).toHaveLength(0);
    expect(store.getState().doc).toBe(store.getState().savedDoc);
    store.getState().applyLayout({ fetch: { x: 10, y: 0 } }, { undoable: true });
    expect(history().pastStates).toHaveLength(1);
    expect(store.getState().doc).not.toBe(store.getState().savedDoc);
  });

  it('deletes a task with its edges, and pastes copies under new ids with inner edges kept', () => {
    const { store, deps } = setup();
    store.getState().select(['fetch', 'summarise']);
    store.getState().copySelection();
    store.getState().paste();
    expect(deps()['fetch-copy']).toEqual([]);
    expect(deps()['summarise-copy']).toEqual(['fetch-copy']);
    expect(store.getState().selectedTaskIds).toEqual(['fetch-copy', 'summarise-copy']);
    store.getState().deleteTasks(['fetch']);
    expect(deps().summarise).toEqual([]);
    expect(Object.keys(deps())).not.toContain('fetch');
  });

  it('reports an invalid update instead of applying it', () => {
    const { store } = setup();
    expect(store.getState().updateTask('fetch', { mark_replan: 'yes' as never })).toMatch(/mark_replan/);
    expect(store.getState().doc.plan.planned_tasks[0].mark_replan).toBe(false);
  });

  it('refuses every edit on a read-only revision', () => {
    const doc = PlanDocument.parse({ plan: { planned_tasks: [{ task_id: 'a' }, { task_id: 'b' }] } });
    const store = createEditorStore({ planId: 'p', revision: 1, doc, readOnly: true });
    expect(store.getState().connect('a', 'b')).toBe(false);
    store.getState().deleteTasks(['a']);
    expect(store.getState().doc).toBe(doc);
  });

  it('does not count a change that changes nothing', () => {
    const { store, history } = setup();
    store.getState().updateTask('fetch', { parameters: {} });
    store.getState().moveTasks({});
    expect(history().pastStates).toHaveLength(0);
    expect(store.getState().doc).toBe(store.getState().savedDoc);
  });

  it('makes a late first layout an undo step when the operator edited before it arrived', () => {
    const { store, history } = setup();
    store.getState().updateTask('fetch', { description: 'Fetch it' });
    store.getState().applyLayout({ fetch: { x: 5, y: 5 } }, { undoable: false });
    expect(history().pastStates).toHaveLength(2);
    history().undo();
    expect(store.getState().doc.plan.planned_tasks[0].description).toBe('Fetch it');
  });
});
