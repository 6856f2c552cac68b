'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { savePlanAction } from '@/app/plans/[id]/actions';
import { useSignInAgain } from '@/components/auth/inline-sign-in';
import { ActionError } from '@/components/form/action-error';
import { planHeadKey, type PlanHead } from '@/components/plan/plan-head';
import { useServerAction } from '@/components/query/use-server-action';
import { saveWouldVoid } from '@/lib/editor-store/approval-guard';
import { planPatch } from '@/lib/editor-store/save-patch';
import type { PlanDocument } from '@/lib/plan';
import { MergeDialog } from './merge-dialog';
import { VoidApprovalDialog } from './void-approval-dialog';
import { useEditor, useEditorStore } from './editor-context';

const SESSION_ENDED = 'Your session ended; sign in again to save your changes — they are kept.';

/**
 * Save as a new revision. A stale base is never overwritten: it opens the merge of these
 * edits onto the newer revision. An ended session asks to sign in again, here, and retries.
 */
export function SaveControls() {
  const store = useEditorStore();
  const dirty = useEditor((s) => s.doc !== s.savedDoc);
  const revision = useEditor((s) => s.baseRevision);
  const [message, setMessage] = useState('');
  const [confirming, setConfirming] = useState(false);
  // The document each save sent: edits made while it was in flight stay unsaved.
  const sent = useRef<PlanDocument | null>(null);
  const queryClient = useQueryClient();
  // The answer carries what the page shows about the new head (the header's status and hash,
  // the approval banner): they are updated here, and the page, with the whole plan, is not
  // rendered again.
  const saving = useServerAction(savePlanAction, {
    refresh: 'never',
    onSuccess: (data, input) => {
      if (sent.current) store.getState().markSaved(data.revision, sent.current, { layoutOnly: data.layout_only });
      store.getState().setApproval(data.approval);
      queryClient.setQueryData<PlanHead>(planHeadKey(input.id), { revision: data.revision, status: data.status, content_hash: data.content_hash });
      setMessage('');
    },
  });

  /** Saves, after asking when the save would void an approval or withdraw a review. */
  function requestSave() {
    const { approval, doc, savedDoc } = store.getState();
    if (saveWouldVoid(approval, doc, savedDoc)) setConfirming(true);
    else void save();
  }

  async function save() {
    setConfirming(false);
    const { planId, baseRevision, doc, storedDoc, collapsed } = store.getState();
    sent.current = doc;
    const text = message.trim() || undefined;
    const change = planPatch(storedDoc, doc, collapsed);
    await saving.run({
      id: planId,
      request: change
        ? { change: { base_revision: baseRevision, ...change, message: text } }
        : { whole: { base_revision: baseRevision, plan: doc.plan, job: doc.job, subgraphs: doc.subgraphs, view: { ...doc.view, collapsed }, message: text } },
    });
  }

  // A refusal the editor can do something about: merge onto the newer revision, or sign in and retry.
  const failure = saving.failure;
  useSignInAgain(failure, SESSION_ENDED, 'editor', save);
  const conflict = failure?.code === 'conflict' ? Number(failure.current_revision) : null;

  // Ctrl/Cmd+S from anywhere in the editor. A field being typed in applies on blur, so it
  // is blurred first and its text is saved with the rest.
  const keySave = useRef<() => void>(() => {});
  useEffect(() => {
    keySave.current = () => {
      if (saving.pending || confirming) return;
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

  const error =
    failure?.code === 'conflict'
      ? null
      : failure?.code === 'unauthenticated'
      ? 'Not saved: your session ended. Sign in again to save; your changes are kept.'
      : failure?.code === 'unreachable'
        ? 'The save did not go through: the server could not be reached, or refused a request this large (plans are limited to 10 MB). Your changes are still here.'
        : saving.error;

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
        onKeyDown={(e) => e.key === 'Enter' && dirty && !saving.pending && requestSave()}
      />
      <button
        type="button"
        disabled={!dirty || saving.pending}
        onClick={requestSave}
        className="rounded-md bg-brand-600 px-3 py-1.5 text-xs font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {saving.pending ? 'Saving…' : 'Save'}
      </button>
      <ActionError message={error} />
      {confirming && <VoidApprovalDialog onConfirm={() => void save()} onCancel={() => setConfirming(false)} />}
      {conflict !== null && <MergeDialog revision={conflict} onClose={saving.reset} />}
    </div>
  );
}
