'use client';

import { useRef, useState } from 'react';
import { parseEdgeId } from '@/lib/flow/plan-to-flow';
import { useCanvasFocus, useCanvasFocusStore, type Relation } from './canvas-focus';
import { useEditor, useEditorStore, useHistory } from './editor-context';
import { ExportMenu } from './export-menu';
import { SMALL_BUTTON } from '@/components/form/styles';
import { useHydrated } from '@/components/ui/use-hydrated';
import { SaveControls } from './save-controls';
import { SubgraphToolbar } from './subgraph-toolbar';
import { ViewSwitch } from './view-switch';

/**
 * The two links to what is on screen, with the address bar's query (`?task=`, `?view=`):
 * the latest saved revision (`/plans/{id}`), which moves on as revisions are saved, and
 * this revision (`/plans/{id}/r/{rev}`), which never changes. Neither carries unsaved edits.
 */
function shareLinks(planId: string, revision: number): { latest: string; revision: string } {
  const { origin, search } = window.location;
  const base = `${origin}/plans/${encodeURIComponent(planId)}`;
  return { latest: `${base}${search}`, revision: `${base}/r/${revision}${search}` };
}

/** "Copy link": both links, each saying what it opens. */
function CopyLinkMenu() {
  const store = useEditorStore();
  const planId = useEditor((s) => s.planId);
  const revision = useEditor((s) => s.baseRevision);
  const dirty = useEditor((s) => s.doc !== s.savedDoc);
  const hasTask = useEditor((s) => s.selectedTaskIds.length === 1);
  const [links, setLinks] = useState<{ latest: string; revision: string } | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const what = hasTask ? 'with this task selected' : 'at this view';

  function close() {
    setLinks(null);
    buttonRef.current?.focus();
  }

  async function copy(kind: 'latest' | 'revision') {
    // Read again: the selection (and so `?task=`) may have changed since the menu opened.
    const url = shareLinks(planId, revision)[kind];
    const opens = kind === 'latest' ? 'the latest saved revision of this plan' : `revision ${revision}, which never changes`;
    close();
    try {
      await navigator.clipboard.writeText(url);
      store.getState().setNotice({ kind: 'info', message: `Link copied: it opens ${opens}, ${what}`, taskIds: [] });
    } catch {
      store.getState().setNotice({ kind: 'info', message: `Copy this link (it opens ${opens}): ${url}`, taskIds: [] });
    }
  }

  const ROW = 'block w-full rounded px-2 py-1.5 text-left text-sm font-medium text-slate-800 hover:bg-slate-100';
  const URL_TEXT = 'block break-all px-2 font-mono text-[11px] text-slate-600 underline';
  return (
    <div
      className="relative"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !links) return;
        // Closes the menu only; the editor's Escape (clear the selection) is not for this key press.
        event.stopPropagation();
        close();
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className={SMALL_BUTTON}
        aria-expanded={links !== null}
        aria-controls="copy-link-menu"
        onClick={() => (links ? setLinks(null) : setLinks(shareLinks(planId, revision)))}
      >
        Copy link
      </button>
      {links && (
        <div id="copy-link-menu" role="group" aria-label="Links to this plan" className="absolute right-0 z-20 mt-1 w-96 space-y-2 rounded-md border border-slate-200 bg-white p-2 shadow-lg">
          <div>
            <button type="button" className={ROW} onClick={() => void copy('latest')}>
              Copy link to the latest revision
            </button>
            <p className="px-2 text-xs text-slate-600">Opens the newest saved revision, {what}; it moves on when someone saves.</p>
            <a className={URL_TEXT} href={links.latest}>
              {links.latest}
            </a>
          </div>
          <div>
            <button type="button" className={ROW} onClick={() => void copy('revision')}>
              Copy link to revision {revision}
            </button>
            <p className="px-2 text-xs text-slate-600">Opens revision {revision} read-only, {what}; it never changes.</p>
            <a className={URL_TEXT} href={links.revision}>
              {links.revision}
            </a>
          </div>
          {dirty && <p className="px-2 text-xs text-amber-800">Your unsaved changes are in neither link: save first to share them.</p>}
        </div>
      )}
    </div>
  );
}

/** "Show upstream" / "Show downstream": dims every task the selection neither depends on nor feeds, and says how many remain. */
function RelationToggles() {
  const focus = useCanvasFocusStore();
  const relation = useCanvasFocus((s) => s.relation);
  const related = useCanvasFocus((s) => s.related);
  const selectedCount = useEditor((s) => s.selectedTaskIds.length);
  const toggle = (which: Relation) => focus.getState().setRelation(relation === which ? null : which);
  const others = related ? related.size - selectedCount : 0;
  return (
    <>
      {(['upstream', 'downstream'] as const).map((which) => (
        <button
          key={which}
          type="button"
          className={SMALL_BUTTON}
          aria-pressed={relation === which}
          disabled={selectedCount === 0 && relation !== which}
          onClick={() => toggle(which)}
        >
          Show {which}
        </button>
      ))}
      <span role="status" className="text-xs text-slate-600">
        {relation && related ? `${others} task${others === 1 ? '' : 's'} ${relation}` : ''}
      </span>
    </>
  );
}

export function EditorToolbar({
  onAddTask,
  onTidy,
  onFit,
  onOptimise,
  onReplan,
  laying,
}: {
  onAddTask: () => void;
  onTidy: () => void;
  onFit: () => void;
  onOptimise: () => void;
  onReplan: () => void;
  laying: boolean;
}) {
  const store = useEditorStore();
  const { canUndo, canRedo, undo, redo } = useHistory();
  const readOnly = useEditor((s) => s.readOnly);
  const hasSelection = useEditor((s) => s.selectedTaskIds.length > 0 || s.selectedEdgeId !== null);
  const hasTaskSelection = useEditor((s) => s.selectedTaskIds.length > 0);
  // The editor is drawn from the server's HTML; these act only once React has taken over.
  const hydrated = useHydrated();

  function deleteSelection() {
    const { selectedTaskIds, selectedEdgeId } = store.getState();
    const edge = selectedEdgeId ? parseEdgeId(selectedEdgeId) : null;
    store.getState().deleteElements(selectedTaskIds, edge ? [edge] : []);
  }

  return (
    <div role="toolbar" aria-label="Editor" className="flex flex-wrap items-center gap-1.5 border-b border-slate-200 bg-white px-3 py-2">
      {!readOnly && (
        <>
          <button type="button" className={SMALL_BUTTON} disabled={!hydrated} onClick={onAddTask}>
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
          <button type="button" className={SMALL_BUTTON} disabled={laying || !hydrated} onClick={onTidy}>
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
      <ViewSwitch />
      <button type="button" className={SMALL_BUTTON} disabled={!hydrated} onClick={onFit}>
        Fit view
      </button>
      <RelationToggles />
      <CopyLinkMenu />
      <ExportMenu />
      <div className="ml-auto">{!readOnly && <SaveControls />}</div>
    </div>
  );
}
