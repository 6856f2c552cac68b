import { setPositions } from '@/lib/plan';
import { mergeSubgraphs, moveTasksToSubgraph, setSubgraphs, splitSubgraph, subgraphsHolding } from '@/lib/optimize/subgraph-edits';
import type { GroupingSlice } from './editor-state';
import type { Slice } from './slice-kit';

// Subgraphs: applying or clearing a grouping, and moving, splitting and merging groups. Each
// is one undo step; one that would break a subgraph invariant is refused with the reason.

export const groupingSlice: Slice<GroupingSlice> = ({ set, get, edit }) => {
  const inform = (message: string) => set({ notice: { kind: 'info', message, taskIds: [] } });

  return {
    applyGrouping(groups, message) {
      return edit((doc) => setSubgraphs(doc, groups), { notice: { kind: 'info', message, taskIds: [] }, collapsed: [] });
    },

    clearSubgraphs() {
      edit((doc) => ({ ...doc, subgraphs: [] }), { collapsed: [] });
    },

    moveToSubgraph(taskIds, subgraphId, positions) {
      return edit((doc) => moveTasksToSubgraph(positions ? setPositions(doc, positions) : doc, taskIds, subgraphId));
    },

    splitSelection() {
      let created = '';
      const ok = edit((doc) => {
        const split = splitSubgraph(doc, get().selectedTaskIds);
        created = split.subgraphId;
        return split.doc;
      });
      if (ok) inform(`Moved the selected tasks into a new subgraph, ${created}`);
      return ok;
    },

    mergeSelection() {
      const ids = subgraphsHolding(get().doc.subgraphs, get().selectedTaskIds);
      const ok = edit((doc) => mergeSubgraphs(doc, ids));
      if (ok) inform(`Merged ${ids.join(', ')} into ${ids[0]}`);
      return ok;
    },
  };
};
