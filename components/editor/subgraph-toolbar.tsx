'use client';

import { SMALL_BUTTON } from '@/components/form/styles';
import { useHydrated } from '@/components/ui/use-hydrated';
import { subgraphsHolding } from '@/lib/optimize/subgraph-edits';
import { useEditor, useEditorStore } from './editor-context';

/** The toolbar's SubGraph controls: optimise, split and merge, collapse and expand, ungroup. */
export function SubgraphToolbar({ onOptimise }: { onOptimise: () => void }) {
  const store = useEditorStore();
  // Drawn from the server's HTML: optimising opens only once React has taken over.
  const hydrated = useHydrated();
  const readOnly = useEditor((s) => s.readOnly);
  const grouped = useEditor((s) => s.doc.subgraphs.length > 0);
  const groupsSelected = useEditor((s) => subgraphsHolding(s.doc.subgraphs, s.selectedTaskIds).length);
  const allCollapsed = useEditor((s) => {
    const collapsed = new Set(s.collapsed);
    return s.doc.subgraphs.length > 0 && s.doc.subgraphs.every((sg) => collapsed.has(sg.subgraph_id));
  });

  return (
    <>
      {!readOnly && (
        <button type="button" className={SMALL_BUTTON} disabled={!hydrated} onClick={onOptimise}>
          Optimise…
        </button>
      )}
      {grouped && !readOnly && (
        <>
          <button type="button" className={SMALL_BUTTON} disabled={groupsSelected !== 1} onClick={() => store.getState().splitSelection()} title="Move the selected tasks into a new subgraph">
            Split off
          </button>
          <button type="button" className={SMALL_BUTTON} disabled={groupsSelected < 2} onClick={() => store.getState().mergeSelection()} title="Merge the subgraphs of the selected tasks">
            Merge groups
          </button>
          <button type="button" className={SMALL_BUTTON} onClick={() => store.getState().clearSubgraphs()}>
            Ungroup
          </button>
        </>
      )}
      {grouped && (
        <button type="button" className={SMALL_BUTTON} onClick={() => store.getState().setAllCollapsed(!allCollapsed)}>
          {allCollapsed ? 'Expand all' : 'Collapse all'}
        </button>
      )}
    </>
  );
}
