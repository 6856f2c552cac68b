'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { loadPlanAction, savePlanAction } from '@/app/plans/[id]/actions';
import { documentOf } from '@/lib/api/schemas';
import { saveWouldVoid } from '@/lib/editor-store/approval-guard';
import { VoidApprovalDialog } from './void-approval-dialog';
import { useEditor, useEditorStore } from './editor-context';

type Conflict = { currentRevision: number };

/** Save as a new revision; a stale base is shown as a conflict, never overwritten. */
export function SaveControls() {
  const store = useEditorStore();
  const router = useRouter();
  const dirty = useEditor((s) => s.doc !== s.savedDoc);
  const revision = useEditor((s) => s.baseRevision);
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  /** Saves, after asking when the save would void an approval or withdraw a review. */
  function requestSave() {
    const { approval, doc, savedDoc } = store.getState();
    if (saveWouldVoid(approval, doc, savedDoc)) setConfirming(true);
    else void save();
  }

  // Ctrl/Cmd+S from anywhere in the editor. A field being typed in applies on blur, so it
  // is blurred first and its text is saved with the rest.
  const keySave = useRef<() => void>(() => {});
  useEffect(() => {
    keySave.current = () => {
      if (saving || confirming) return;
      const active = document.activeElement;
      if (active instanceof HTMLElement && active !== document.body) active.blur();
      const { doc, savedDoc } = store.getState();
      if (doc === savedDoc) store.getState().setNotice({ kind: 'info', message: 'Nothing to save: no unsaved changes', taskIds: [] });
      else requestSave();
    };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 's' || event.altKey) return;
      event.preventDefault();
      keySave.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  async function save() {
    setConfirming(false);
    const { planId, baseRevision, doc, collapsed } = store.getState();
    setSaving(true);
    setError(null);
    try {
      const result = await savePlanAction({
        id: planId,
        request: { base_revision: baseRevision, plan: doc.plan, job: doc.job, subgraphs: doc.subgraphs, view: { ...doc.view, collapsed }, message: message.trim() || undefined },
      });
      if (result.ok) {
        store.getState().markSaved(result.data.revision, doc, { layoutOnly: result.data.layout_only });
        setMessage('');
        // The page header (revision, hash) is server-rendered; the editor keeps its state.
        router.refresh();
      } else if (result.error.code === 'conflict') {
        setConflict({ currentRevision: Number(result.error.current_revision) });
      } else {
        setError(result.error.message);
      }
    } catch {
      setError('The save did not go through: the server could not be reached, or refused a request this large (plans are limited to 10 MB). Your changes are still here.');
    } finally {
      setSaving(false);
    }
  }

  async function reloadLatest() {
    try {
      const result = await loadPlanAction({ id: store.getState().planId });
      if (!result.ok) return setError(result.error.message);
      store.getState().loadRevision(documentOf(result.data), result.data.revision);
      setConflict(null);
      router.refresh();
    } catch {
      setError('Could not load the latest revision; the server could not be reached. Try again.');
    }
  }

  return (
    <div className="flex items-center gap-2">
      <span className="text-xs text-slate-600" aria-live="polite">
        Revision {revision}
        {dirty ? <strong className="ml-2 font-medium text-amber-700">Unsaved changes</strong> : <span className="ml-2 text-emerald-700">Saved</span>}
      </span>
      <label htmlFor="save-message" className="sr-only">
        Revision message
      </label>
      <input
        id="save-message"
        placeholder="What changed? (optional)"
        className="w-48 rounded border border-slate-300 px-2 py-1 text-xs"
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && dirty && !saving && requestSave()}
      />
      <button
        type="button"
        disabled={!dirty || saving}
        onClick={requestSave}
        className="rounded-md bg-brand-600 px-3 py-1.5 text-xs font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {saving ? 'Saving…' : 'Save'}
      </button>
      {error && (
        <p role="alert" className="text-xs text-rose-700">
          {error}
        </p>
      )}
      {confirming && <VoidApprovalDialog onConfirm={() => void save()} onCancel={() => setConfirming(false)} />}
      {conflict && (
        <div role="alertdialog" aria-labelledby="conflict-title" aria-describedby="conflict-text" className="fixed inset-0 z-50 grid place-items-center bg-slate-900/40">
          <div className="w-[28rem] rounded-lg bg-white p-5 shadow-xl">
            <h2 id="conflict-title" className="text-base font-semibold">
              This plan was saved elsewhere
            </h2>
            <p id="conflict-text" className="mt-2 text-sm text-slate-600">
              Someone saved revision {conflict.currentRevision} while you were editing revision {revision}. Nothing was overwritten. Reload the
              latest revision (your unsaved changes here are discarded), or keep editing and copy what you need first.
            </p>
            <div className="mt-4 flex justify-end gap-2">
              <button type="button" className="rounded border border-slate-300 px-3 py-1.5 text-sm" onClick={() => setConflict(null)}>
                Keep editing
              </button>
              <button type="button" className="rounded bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white" onClick={() => void reloadLatest()}>
                Reload latest
              </button>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
