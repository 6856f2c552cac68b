'use client';

import { useId, useState, type ReactNode } from 'react';
import { decideGateAction, gateSigningOptionsAction } from '@/app/runs/run-actions';
import { PasskeyChoice } from '@/components/account/passkey-choice';
import { usePasskeySigning } from '@/components/account/use-passkey-signing';
import { ActionError } from '@/components/form/action-error';
import { JsonField } from '@/components/form/json-field';
import { parseJsonText } from '@/components/form/parse-json';
import { PANEL_INPUT, SMALL_BUTTON, SMALL_PRIMARY_BUTTON } from '@/components/form/styles';
import { INBOX_KEY } from '@/components/inbox/inbox-keys';
import { useServerAction } from '@/components/query/use-server-action';
import { JsonViewer } from './json-viewer';
import { runKey } from './use-live-run';

/** Why the viewer cannot decide, or null when they can. */
export type GateRefusal = string | null;

export interface GateCardProps {
  runId: string;
  taskId: string;
  label: string;
  /** The resolved input the task will be sent once approved. */
  input: unknown;
  refusal: GateRefusal;
  /** False when the task sets parameters.gate_allows_edit: false. */
  allowEdit: boolean;
  /** Where the gate is (plan, run, since when), on pages that list gates of many runs. */
  context?: ReactNode;
  /** Re-render the page's server components after a decision (the inbox); the run view follows its own query. */
  refreshPage?: boolean;
}

type Mode = 'view' | 'edit' | 'reject';

/**
 * One task waiting at its gate, as its deciders act on it: approve it as shown, edit its input
 * then approve (the task is sent exactly that, recorded with its hash), or reject it with a reason.
 */
export function GateCard({ runId, taskId, label, input, refusal, allowEdit, context, refreshPage = false }: GateCardProps) {
  const [mode, setMode] = useState<Mode>('view');
  const [comment, setComment] = useState('');
  const [draft, setDraft] = useState(() => JSON.stringify(input ?? null, null, 2));
  const [draftError, setDraftError] = useState<string | null>(null);
  const commentId = useId();
  const decide = useServerAction(decideGateAction, { refresh: refreshPage ? 'success' : 'never', invalidate: [runKey(runId), INBOX_KEY] });
  const passkey = usePasskeySigning();
  // With a passkey, the authenticator first signs the hash of exactly this decision (and the input it approves).
  const send = async (decision: 'approve' | 'reject', edited?: { input: unknown }) => {
    const signed = await passkey.sign(() => gateSigningOptionsAction({ runId, taskId, decision, ...edited }));
    if (!signed.ok) return decide.fail(signed.message);
    void decide.run({ runId, taskId, decision, request: { comment, ...edited, ...(signed.signature ? { signature: signed.signature } : {}) } });
  };
  const approve = () => void send('approve');
  const approveEdited = () => {
    const parsed = parseJsonText(draft);
    if (!parsed.ok) return setDraftError(parsed.message);
    setDraftError(null);
    void send('approve', { input: parsed.value });
  };
  const reject = () => void send('reject');
  const rejecting = mode === 'reject';
  const busy = decide.pending || passkey.signing;
  return (
    <section aria-label={`Gate ${label}`} className="space-y-2 rounded-lg border border-violet-300 bg-violet-50 p-3 text-sm">
      <header>
        <h3 className="font-semibold">{label}</h3>
        {context}
      </header>
      {mode === 'edit' ? (
        <JsonField label={`Input to send instead (${label})`} value={draft} onChange={setDraft} error={draftError} minRows={4} maxRows={16} autoFocus />
      ) : (
        <>
          <p className="text-xs text-slate-700">Its dependencies are done; it runs with this input once approved.</p>
          <JsonViewer label={`Input of ${label}`} value={input} empty="No input." />
        </>
      )}
      {refusal ? (
        <p className="text-xs text-slate-700">{refusal}</p>
      ) : (
        <>
          <label htmlFor={commentId} className="block text-xs font-medium text-slate-700">
            {rejecting ? 'Reason (required)' : 'Comment (optional)'}
          </label>
          <textarea id={commentId} className={`${PANEL_INPUT} w-full`} rows={2} value={comment} maxLength={2000} required={rejecting} onChange={(e) => setComment(e.target.value)} />
          <div className="flex flex-wrap gap-2">
            {mode === 'view' && (
              <>
                <button type="button" className={SMALL_PRIMARY_BUTTON} disabled={busy} onClick={approve}>
                  Approve
                </button>
                {allowEdit && (
                  <button type="button" className={SMALL_BUTTON} disabled={busy} onClick={() => setMode('edit')}>
                    Edit input
                  </button>
                )}
                <button type="button" className={SMALL_BUTTON} disabled={busy} onClick={() => setMode('reject')}>
                  Reject…
                </button>
              </>
            )}
            {mode === 'edit' && (
              <button type="button" className={SMALL_PRIMARY_BUTTON} disabled={busy} onClick={approveEdited}>
                Approve with this input
              </button>
            )}
            {rejecting && (
              <button type="button" className={`${SMALL_BUTTON} text-rose-800`} disabled={busy || !comment.trim()} onClick={reject}>
                Reject
              </button>
            )}
            {mode !== 'view' && (
              <button type="button" className={SMALL_BUTTON} disabled={busy} onClick={() => setMode('view')}>
                Back
              </button>
            )}
          </div>
          <PasskeyChoice signing={passkey} />
          {!allowEdit && <p className="text-xs text-slate-700">This task&apos;s plan does not allow its input to be edited at the gate.</p>}
          <ActionError message={decide.error} className="block text-xs text-rose-700" />
        </>
      )}
    </section>
  );
}
