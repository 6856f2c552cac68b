'use client';

import { parseEdgeId } from '@/lib/flow/plan-to-flow';
import { useEditor, useEditorStore, useHistory } from './editor-context';
import { ExportMenu } from './export-menu';
import { SMALL_BUTTON } from '@/components/form/styles';
import { SaveControls } from './save-controls';
import { SubgraphToolbar } from './subgraph-toolbar';


export function EditorToolbar({
  onTidy,
  onFit,
  onCopyLink,
  onOptimise,
  onReplan,
  laying,
}: {
  onTidy: () => void;
  onFit: () => void;
  onCopyLink: () => void;
  onOptimise: () => void;
  onReplan: () => void;
  laying: boolean;
}) {
  const store = useEditorStore();
  const { canUndo, canRedo, undo, redo } = useHistory();
  const readOnly = useEditor((s) => s.readOnly);
  const hasSelection = useEditor((s) => s.selectedTaskIds.length > 0 || s.selectedEdgeId !== null);
  const hasTaskSelection = useEditor((s) => s.selectedTaskIds.length > 0);

  function deleteSelection() {
    const { selectedTaskIds, selectedEdgeId } = store.getState();
    const edge = selectedEdgeId ? parseEdgeId(selectedEdgeId) : null;
    store.getState().deleteElements(selectedTaskIds, edge ? [edge] : []);
  }

  return (
    <div role="toolbar" aria-label="Editor" className="flex flex-wrap items-center gap-1.5 border-b border-slate-200 bg-white px-3 py-2">
      {!readOnly && (
        <>
          <button type="button" className={SMALL_BUTTON} onClick={() => store.getState().addTask()}>
            Add task
          </button>
          <button type="button" className={SMALL_BUTTON} disabled={!hasSelection} onClick={deleteSelection} aria-keyshortcuts="Delete">
            Delete
          </button>
          <button type="button" className={SMALL_BUTTON} disabled={!hasTaskSelection} onClick={() => store.getState().duplicateSelection()} aria-keyshortcuts="Control+D">
            Duplicate
          </button>
          <span aria-hidden className="mx-1 h-5 w-px bg-slate-200" />
          <button type="button" className={SMALL_BUTTON} disabled={!canUndo} onClick={undo} aria-keyshortcuts="Control+Z">
            Undo
          </button>
          <button type="button" className={SMALL_BUTTON} disabled={!canRedo} onClick={redo} aria-keyshortcuts="Control+Shift+Z">
            Redo
          </button>
          <span aria-hidden className="mx-1 h-5 w-px bg-slate-200" />
          <button type="button" className={SMALL_BUTTON} disabled={laying} onClick={onTidy}>
            {laying ? 'Laying out…' : 'Tidy up'}
          </button>
          <span aria-hidden className="mx-1 h-5 w-px bg-slate-200" />
        </>
      )}
      <SubgraphToolbar onOptimise={onOptimise} />
      {!readOnly && (
        <button type="button" className={SMALL_BUTTON} disabled={!hasTaskSelection} onClick={onReplan}>
          Replan selected…
        </button>
      )}
      <button type="button" className={SMALL_BUTTON} onClick={onFit}>
        Fit view
      </button>
      <button type="button" className={SMALL_BUTTON} onClick={onCopyLink}>
        Copy link
      </button>
      <ExportMenu />
      <div className="ml-auto">{!readOnly && <SaveControls />}</div>
    </div>
  );
}
