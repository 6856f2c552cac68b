import { describe, expect, it } from 'vitest';
import { PlanDocument } from '@/lib/plan';
import { createEditorStore } from './editor-store';

// fetch → summarise → publish, and audit on its own.
function setup() {
  const doc = PlanDocument.parse({
    plan: {
      planned_tasks: [
        { task_id: 'fetch', execution_type: 'tool' },
        { task_id: 'summarise', execution_type: 'llm', dependencies: ['fetch'] },
        { task_id: 'publish', execution_type: 'agent', dependencies: ['summarise'] },
        { task_id: 'audit', execution_type: 'agent' },
      ],
    },
  });
  const store = createEditorStore({ planId: 'p1', revision: 1, doc, readOnly: false });
  store.getState().applyGrouping(
    [
      { subgraph_id: 'sg-1', task_ids: ['fetch', 'summarise'] },
      { subgraph_id: 'sg-2', task_ids: ['publish'] },
      { subgraph_id: 'sg-3', task_ids: ['audit'] },
    ],
    'grouped',
  );
  const groups = () => Object.fromEntries(store.getState().doc.subgraphs.map((sg) => [sg.subgraph_id, sg.task_ids]));
  return { store, groups, history: () => store.temporal.getState() };
}

describe('editor grouping commands', () => {
  it('applies a grouping as one undo step', () => {
    const { store, history, groups } = setup();
    expect(groups()).toEqual({ 'sg-1': ['fetch', 'summarise'], 'sg-2': ['publish'], 'sg-3': ['audit'] });
    expect(history().pastStates).toHaveLength(1);
    history().undo();
    expect(store.getState().doc.subgraphs).toEqual([]);
  });

  it('moves a dropped task into a subgraph with its position, as one step', () => {
    const { store, history, groups } = setup();
    expect(store.getState().moveToSubgraph(['audit'], 'sg-2', { audit: { x: 500, y: 40 } })).toBe(true);
    // Independent tasks keep the plan's dependency order: audit is a source, so it leads.
    expect(groups()).toEqual({ 'sg-1': ['fetch', 'summarise'], 'sg-2': ['audit', 'publish'] });
    expect(store.getState().doc.view.positions.audit).toEqual({ x: 500, y: 40 });
    expect(history().pastStates).toHaveLength(2);
    history().undo();
    expect(groups()).toEqual({ 'sg-1': ['fetch', 'summarise'], 'sg-2': ['publish'], 'sg-3': ['audit'] });
    expect(store.getState().doc.view.positions.audit).toBeUndefined();
  });

  it('refuses a move that breaks an invariant with the reason and changes nothing', () => {
    const { store, history } = setup();
    const before = store.getState().doc;
    expect(store.getState().moveToSubgraph(['fetch'], 'sg-2')).toBe(false);
    expect(store.getState().notice).toMatchObject({ kind: 'refusal', message: expect.stringMatching(/Subgraphs wait on each other/) });
    expect(store.getState().doc).toBe(before);
    expect(history().pastStates).toHaveLength(1);
  });

  it('splits and merges the groups of the selected tasks', () => {
    const { store, groups } = setup();
    store.getState().select(['summarise']);
    expect(store.getState().splitSelection()).toBe(true);
    expect(groups()).toEqual({ 'sg-1': ['fetch'], 'sg-4': ['summarise'], 'sg-2': ['publish'], 'sg-3': ['audit'] });
    store.getState().select(['summarise', 'publish']);
    expect(store.getState().mergeSelection()).toBe(true);
    // Merged into the first of them in list order: the split-off group sits right after sg-1.
    expect(groups()).toEqual({ 'sg-1': ['fetch'], 'sg-4': ['summarise', 'publish'], 'sg-3': ['audit'] });
    store.getState().select(['fetch', 'publish']);
    expect(store.getState().mergeSelection()).toBe(true);
    expect(groups()).toEqual({ 'sg-1': ['fetch', 'summarise', 'publish'], 'sg-3': ['audit'] });
  });

  it('keeps the grouping in step with task and dependency edits', () => {
    const { store, groups } = setup();
    const id = store.getState().addTask({ task_id: 'notify' });
    expect(id).toBe('notify');
    expect(groups()).toMatchObject({ 'sg-4': ['notify'] });
    expect(store.getState().connect('publish', 'notify')).toBe(true);
    expect(store.getState().doc.subgraphs.find((sg) => sg.subgraph_id === 'sg-4')?.depends_on).toEqual(['sg-2']);
    store.getState().deleteTasks(['publish']);
    expect(groups()).toEqual({ 'sg-1': ['fetch', 'summarise'], 'sg-3': ['audit'], 'sg-4': ['notify'] });
  });

  it('refuses a dependency that would make subgraphs wait on each other', () => {
    const { store } = setup();
    store.getState().applyGrouping(
      [
        { subgraph_id: 'a', task_ids: ['fetch', 'audit'] },
        { subgraph_id: 'b', task_ids: ['summarise', 'publish'] },
      ],
      'regrouped',
    );
    const before = store.getState().doc;
    // publish (in b) → audit (in a) while a already feeds b.
    expect(store.getState().connect('publish', 'audit')).toBe(false);
    expect(store.getState().notice?.message).toMatch(/Subgraphs wait on each other/);
    expect(store.getState().doc).toBe(before);
    // The inspector's way to the same edge is refused the same way, with a message it can show.
    expect(store.getState().updateTask('audit', { dependencies: ['publish'] })).toMatch(/^Subgraphs wait on each other/);
    expect(store.getState().doc).toBe(before);
  });

  it('collapses and expands without making an edit', () => {
    const { store, history } = setup();
    store.getState().toggleCollapsed('sg-1');
    expect(store.getState().collapsed).toEqual(['sg-1']);
    store.getState().setAllCollapsed(true);
    expect(store.getState().collapsed).toEqual(['sg-1', 'sg-2', 'sg-3']);
    store.getState().setAllCollapsed(false);
    expect(store.getState().collapsed).toEqual([]);
    expect(history().pastStates).toHaveLength(1);
  });

  it('drops collapsed ids whose subgraph is gone, undo included, and hides no selected task', () => {
    const { store, history } = setup();
    store.getState().select(['publish', 'audit']);
    store.getState().toggleCollapsed('sg-2');
    expect(store.getState().selectedTaskIds).toEqual(['audit']);
    store.getState().deleteTasks(['publish']);
    expect(store.getState().collapsed).toEqual([]);

    store.getState().setAllCollapsed(true);
    history().undo();
    history().undo();
    expect(store.getState().doc.subgraphs).toEqual([]);
    expect(store.getState().collapsed).toEqual([]);
  });

  it('expands the subgraphs of tasks it is asked to show', () => {
    const { store } = setup();
    store.getState().setAllCollapsed(true);
    store.getState().expandToShow(['summarise']);
    expect(store.getState().collapsed).toEqual(['sg-2', 'sg-3']);
  });
});
