import { describe, expect, it } from 'vitest';
import { PlanDocument, updateTask } from '@/lib/plan';
import { mergePlans } from '@/lib/plan/merge';
import { createEditorStore } from './editor-store';

const base = PlanDocument.parse({
  plan: {
    planned_tasks: [
      { task_id: 'fetch', description: 'Fetch', execution_type: 'tool' },
      { task_id: 'review', description: 'Review', execution_type: 'agent', dependencies: ['fetch'] },
    ],
  },
});

describe('rebasing the editor onto a newer revision', () => {
  it('keeps my edits unsaved on the new base, as one undo step back to that revision as saved', () => {
    const store = createEditorStore({ planId: 'p1', revision: 4, doc: base, readOnly: false });
    store.getState().updateTask('fetch', { description: 'Fetch mine' });
    store.getState().updateTask('fetch', { instructions: 'Carefully' });
    const theirs = updateTask(base, 'review', { description: 'Review theirs' });
    const { doc, conflicts } = mergePlans(store.getState().savedDoc, store.getState().doc, theirs);
    expect(conflicts).toEqual([]);

    store.getState().rebase(theirs, 6, doc);
    const state = store.getState();
    expect(state.baseRevision).toBe(6);
    expect(state.savedDoc).toBe(theirs);
    expect(state.doc).not.toBe(state.savedDoc);
    expect(state.doc.plan.planned_tasks.map((t) => t.description)).toEqual(['Fetch mine', 'Review theirs']);
    expect(state.notice?.message).toMatch(/on top of revision 6/);

    expect(store.temporal.getState().pastStates).toHaveLength(1);
    store.temporal.getState().undo();
    // Undo never goes back to the draft on the old base, which would silently drop their save.
    expect(store.getState().doc).toBe(theirs);
  });
});
