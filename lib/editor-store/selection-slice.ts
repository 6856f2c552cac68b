import type { PlanDocument } from '@/lib/plan';
import { subgraphsHolding } from '@/lib/optimize/subgraph-edits';
import type { SelectionSlice } from './editor-state';
import type { Slice } from './slice-kit';

// What the operator is looking at and acting on: the selected tasks or edge, and which
// subgraphs are drawn collapsed. None of it is an edit or an undo step.

/** The collapsed ids that still name a subgraph of `doc`. */
export function liveCollapsed(doc: PlanDocument, collapsed: readonly string[]): string[] {
  if (collapsed.length === 0) return [];
  const ids = new Set(doc.subgraphs.map((sg) => sg.subgraph_id));
  return collapsed.filter((id) => ids.has(id));
}

export const selectionSlice: Slice<SelectionSlice> = ({ init, set, get }) => {
  /** Collapses subgraphs; their tasks leave the selection, since a hidden task cannot be seen to be acted on. */
  const collapse = (collapsed: string[]) => {
    const hidden = new Set(collapsed);
    const hiddenTasks = new Set(get().doc.subgraphs.filter((sg) => hidden.has(sg.subgraph_id)).flatMap((sg) => sg.task_ids));
    set({ collapsed, selectedTaskIds: get().selectedTaskIds.filter((id) => !hiddenTasks.has(id)) });
  };

  return {
    selectedTaskIds: [],
    selectedEdgeId: null,
    collapsed: liveCollapsed(init.doc, init.doc.view.collapsed),

    select: (taskIds) => set({ selectedTaskIds: taskIds, selectedEdgeId: null }),
    selectEdge: (edgeId) => set({ selectedEdgeId: edgeId, selectedTaskIds: edgeId ? [] : get().selectedTaskIds }),

    toggleCollapsed(subgraphId) {
      const collapsed = get().collapsed;
      if (collapsed.includes(subgraphId)) set({ collapsed: collapsed.filter((id) => id !== subgraphId) });
      else collapse([...collapsed, subgraphId]);
    },

    setAllCollapsed(collapsed) {
      if (collapsed) collapse(get().doc.subgraphs.map((sg) => sg.subgraph_id));
      else set({ collapsed: [] });
    },

    expandToShow(taskIds) {
      const owners = new Set(subgraphsHolding(get().doc.subgraphs, taskIds));
      const collapsed = get().collapsed;
      if (collapsed.some((id) => owners.has(id))) set({ collapsed: collapsed.filter((id) => !owners.has(id)) });
    },
  };
};
