import { groupingError, resyncSubgraphs } from '@/lib/optimize/subgraph-edits';
import type { EditorState, RevisionSlice } from './editor-state';
import type { Slice } from './slice-kit';

// The editor against the saved revisions: saving, what stands on the plan (approval or
// review), and moving onto a revision made elsewhere. Loading a revision starts a new
// history; rebasing leaves one undo step, back to that revision as saved.

export const revisionSlice: Slice<RevisionSlice> = ({ init, set, get, history }) => {
  /** Makes `doc` the saved revision without an undo step, and forgets the history before it. */
  const startFrom = (state: Partial<EditorState>) => {
    history.pause();
    set(state);
    history.resume();
    history.clear();
  };

  return {
    approval: init.approval ?? null,

    applySavedRevision(doc, revision) {
      // An applied replan changes content: whatever stood on the plan no longer does.
      set({ doc, savedDoc: doc, storedDoc: doc, baseRevision: revision, selectedTaskIds: [], selectedEdgeId: null, approval: null });
    },

    setApproval: (approval) => set({ approval }),

    markSaved(revision, sent, options) {
      set(
        options?.layoutOnly
          ? { baseRevision: revision, savedDoc: sent, storedDoc: sent, savedHere: revision }
          : { baseRevision: revision, savedDoc: sent, storedDoc: sent, savedHere: revision, approval: null },
      );
    },

    loadRevision(doc, revision) {
      startFrom({ doc, savedDoc: doc, storedDoc: doc, baseRevision: revision, notice: null, selectedEdgeId: null, collapsed: doc.view.collapsed });
    },

    rebase(theirs, revision, merged) {
      startFrom({ doc: theirs, savedDoc: theirs, storedDoc: theirs, baseRevision: revision, selectedEdgeId: null });
      // The merge unions both sides' groups; tasks left out of every group get one of their own.
      const doc = merged.subgraphs.length ? resyncSubgraphs(merged) : merged;
      const error = doc.subgraphs.length ? groupingError(doc.plan.planned_tasks, doc.subgraphs) : null;
      const live = new Set(doc.plan.planned_tasks.map((t) => t.task_id));
      set({
        doc,
        selectedTaskIds: get().selectedTaskIds.filter((id) => live.has(id)),
        notice: error ? { kind: 'error', message: `After merging: ${error}`, taskIds: [] } : { kind: 'info', message: `Your changes are now on top of revision ${revision}; review them and save`, taskIds: [] },
      });
    },
  };
};
