'use client';

import { useState } from 'react';
import { decideAction, decisionSigningOptionsAction } from '@/app/plans/[id]/gate-actions';
import { PasskeyChoice } from '@/components/account/passkey-choice';
import { usePasskeySigning } from '@/components/account/use-passkey-signing';
import { isOpen, useComments } from '@/components/comments/use-comments';
import { useCommentTasks } from '@/components/comments/comment-tasks';
import { ActionError, BLOCK_ERROR } from '@/components/form/action-error';
import { FormStatus } from '@/components/form/form-status';
import { useServerAction } from '@/components/query/use-server-action';
import type { Thread } from '@/lib/api/comment-schemas';
import type { Decision } from '@/lib/approval/gate';
import { OpenThreadsDialog, type OpenThread } from './open-threads-dialog';

const BUTTONS: Array<{ decision: Decision; label: string; className: string }> = [
  { decision: 'approved', label: 'Approve', className: 'bg-emerald-700 hover:bg-emerald-800 text-white' },
  { decision: 'changes_requested', label: 'Request changes', className: 'bg-orange-700 hover:bg-orange-800 text-white' },
  { decision: 'rejected', label: 'Reject', className: 'bg-rose-700 hover:bg-rose-800 text-white' },
];

const DONE = { approved: 'approved', changes_requested: 'requested changes to', rejected: 'rejected' } as const;

/** The reader's own decision on the content on screen, as the success state says it. */
export interface YourDecision {
  reviewId: number;
  decision: Decision;
  revision: number;
  /** Where the plan stands after it: an approval short of the required count leaves it in review. */
  approvals?: { given: number; required: number } | null;
}

export function yourDecisionText({ decision, revision, approvals }: YourDecision): string {
  const progress = decision === 'approved' && approvals && approvals.given < approvals.required ? ` It has ${approvals.given} of ${approvals.required} required approvals.` : '';
  return `You ${DONE[decision]} revision ${revision}.${progress}`;
}

export interface ReviewPanelProps {
  planId: string;
  revision: number;
  contentHash: string;
  /** The registry resources shown with the plan; a decision on changed ones is refused as stale. */
  resourcesHash: string;
  /** Why approving would be refused, as the server would say it; null when it would not. */
  approveRefusal: string | null;
  /** Why any decision would be refused (not in review, stale, …); null when it would not. */
  decideRefusal: string | null;
  /** The reader's standing decision on this content, if any: said instead of why they cannot decide again. */
  yourDecision?: YourDecision | null;
  /** The plan's tasks by name, for the threads an approval would leave open. Left out for a big plan: read with the canvas's tasks. */
  tasks?: Array<{ id: string; label: string }>;
}

const FIRST_WORDS = 12;

function openThreadsOf(threads: Thread[], labels: Map<string, string>): OpenThread[] {
  return threads.filter(isOpen).map((thread) => {
    const words = (thread.comments[0]?.body ?? '').split(/\s+/).filter(Boolean);
    const where = thread.task_id === null ? 'The plan' : thread.on_removed_task ? `Removed task ${thread.task_id}` : (labels.get(thread.task_id) ?? thread.task_id);
    return { id: thread.id, where, author: thread.author, excerpt: `${words.slice(0, FIRST_WORDS).join(' ')}${words.length > FIRST_WORDS ? '…' : ''}` };
  });
}

/** The approver's decision on exactly the revision and hash on screen. */
export function ReviewPanel({ planId, revision, contentHash, resourcesHash, approveRefusal, decideRefusal, yourDecision = null, tasks: carried }: ReviewPanelProps) {
  const tasks = useCommentTasks(planId, revision, carried);
  const [comment, setComment] = useState('');
  const [warning, setWarning] = useState<OpenThread[] | null>(null);
  const [checking, setChecking] = useState(false);
  const comments = useComments(planId, revision);
  // Deciding answers the reader's review requests: the header's inbox count changes.
  const decide = useServerAction(decideAction, { onSuccess: () => setComment(''), invalidate: [['inbox']] });
  const passkey = usePasskeySigning();
  // With a passkey, the authenticator first signs the hash of exactly this decision; the signature goes with it.
  const send = async (decision: Decision) => {
    const claim = { revision, content_hash: contentHash, resources_hash: resourcesHash };
    const signed = await passkey.sign(() => decisionSigningOptionsAction({ id: planId, decision, ...claim }));
    if (!signed.ok) return decide.fail(signed.message);
    void decide.run({ id: planId, decision, request: { ...claim, comment, ...(signed.signature ? { signature: signed.signature } : {}) } });
  };

  // Approving over open threads is allowed, but asked about first, naming them: the freshest
  // list, since the other side may have answered or opened one since the page loaded. The
  // button stays enabled (and focused) meanwhile, so focus can return to it from the dialog.
  const approve = async () => {
    if (checking) return;
    setChecking(true);
    const fresh = await comments.refetch().finally(() => setChecking(false));
    const threads = fresh.data?.threads ?? comments.data?.threads ?? [];
    const open = openThreadsOf(threads, new Map(tasks.map((task) => [task.id, task.label])));
    if (open.length) setWarning(open);
    else void send('approved');
  };

  // The answer to the click says it at once; the page rendered after it adds the approval count.
  const answered = decide.data ? { reviewId: decide.data.review.id, decision: decide.data.review.decision, revision: decide.data.revision } : null;
  const done = answered && (!yourDecision || yourDecision.reviewId < answered.reviewId) ? answered : yourDecision;
  const refusal = decideRefusal ?? approveRefusal;

  return (
    <form className="space-y-3" onSubmit={(event) => event.preventDefault()} aria-label="Decision">
      <p className="text-xs text-slate-500">
        Deciding on revision {revision} · <span className="font-mono">{contentHash.slice(0, 19)}</span>
      </p>
      <label className="block text-sm font-medium text-slate-700">
        Comment
        <textarea
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          rows={3}
          maxLength={4000}
          aria-describedby="decision-comment-hint"
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
      </label>
      <p id="decision-comment-hint" className="text-xs text-slate-600">
        Kept with your decision in the list of decisions; it opens no comment thread.
      </p>
      <div className="flex flex-wrap gap-2">
        {BUTTONS.map(({ decision, label, className }) => {
          const refused = decideRefusal ?? (decision === 'approved' ? approveRefusal : null);
          return (
            <button
              key={decision}
              type="button"
              disabled={decide.pending || passkey.signing || refused !== null}
              title={refused ?? undefined}
              onClick={() => void (decision === 'approved' ? approve() : send(decision))}
              className={`rounded-md px-3 py-1.5 text-sm font-medium shadow-sm disabled:cursor-not-allowed disabled:opacity-50 ${className}`}
            >
              {label}
            </button>
          );
        })}
      </div>
      {!refusal && <PasskeyChoice signing={passkey} />}
      {done ? <FormStatus>{yourDecisionText(done)}</FormStatus> : refusal && !decide.error && <p className="text-sm text-slate-600">{refusal}</p>}
      <ActionError message={decide.error} className={BLOCK_ERROR} />
      {warning && (
        <OpenThreadsDialog
          threads={warning}
          revision={revision}
          onCancel={() => setWarning(null)}
          onConfirm={() => {
            setWarning(null);
            void send('approved');
          }}
        />
      )}
    </form>
  );
}
