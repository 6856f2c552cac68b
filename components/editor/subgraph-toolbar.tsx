'use client';

import { useEditor, useEditorStore } from './editor-context';

/** How many subgraphs hold the selected tasks: split needs one, merge at least two. */
function selectedGroupCount(s: { selectedTaskIds: string[]; doc: { subgraphs: Array<{ task_ids: string[] }> } }): number {
  if (s.selectedTaskIds.length === 0 || s.doc.subgraphs.length === 0) return 0;
  const selected = new Set(s.selectedTaskIds);
  return s.doc.subgraphs.filter((sg) => sg.task_ids.some((id) => selected.has(id))).length;
}

/** The toolbar's SubGraph controls: optimise, split and merge, collapse and expand, ungroup. */
export function SubgraphToolbar({ button, onOptimise }: { button: string; onOptimise: () => void }) {
  const store = useEditorStore();
  const readOnly = useEditor((s) => s.readOnly);
  const grouped = useEditor((s) => s.doc.subgraphs.length > 0);
  const groupsSelected = useEditor(selectedGroupCount);
  const allCollapsed = useEditor((s) => {
    const collapsed = new Set(s.collapsed);
    return s.doc.subgraphs.length > 0 && s.doc.subgraphs.every((sg) => collapsed.has(sg.subgraph_id));
  });

  return (
    <>
      {!readOnly && (
        <button type="button" className={button} onClick={onOptimise}>
          Optimise…
        </button>
      )}
      {grouped && !readOnly && (
        <>
          <button type="button" className={button} disabled={groupsSelected !== 1} onClick={() => store.getState().splitSelection()} title="Move the selected tasks into a new subgraph">
            Split off
          </button>
          <button type="button" className={button} disabled={groupsSelected < 2} onClick={() => store.getState().mergeSelection()} title="Merge the subgraphs of the selected tasks">
            Merge groups
          </button>
          <button type="button" className={button} onClick={() => store.getState().clearSubgraphs()}>
            Ungroup
          </button>
        </>
      )}
      {grouped && (
        <button type="button" className={button} onClick={() => store.getState().setAllCollapsed(!allCollapsed)}>
          {allCollapsed ? 'Expand all' : 'Collapse all'}
        </button>
      )}
    </>
  );
}
