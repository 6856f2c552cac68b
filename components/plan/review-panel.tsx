'use client';

import { useState } from 'react';
import { decideAction } from '@/app/plans/[id]/gate-actions';
import { commentsKey } from '@/components/comments/use-comments';
import { ActionError, BLOCK_ERROR } from '@/components/form/action-error';
import { useServerAction } from '@/components/query/use-server-action';
import type { Decision } from '@/lib/approval/gate';

const BUTTONS: Array<{ decision: Decision; label: string; className: string }> = [
  { decision: 'approved', label: 'Approve', className: 'bg-emerald-700 hover:bg-emerald-800 text-white' },
  { decision: 'changes_requested', label: 'Request changes', className: 'bg-orange-700 hover:bg-orange-800 text-white' },
  { decision: 'rejected', label: 'Reject', className: 'bg-rose-700 hover:bg-rose-800 text-white' },
];

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
}

/** The approver's decision on exactly the revision and hash on screen. */
export function ReviewPanel({ planId, revision, contentHash, resourcesHash, approveRefusal, decideRefusal }: ReviewPanelProps) {
  const [comment, setComment] = useState('');
  // A decision's comment also opens a thread on the plan: the Comments section shows it at once.
  const decide = useServerAction(decideAction, { onSuccess: () => setComment(''), invalidate: [commentsKey(planId)] });

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
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
      </label>
      <div className="flex flex-wrap gap-2">
        {BUTTONS.map(({ decision, label, className }) => {
          const refusal = decideRefusal ?? (decision === 'approved' ? approveRefusal : null);
          return (
            <button
              key={decision}
              type="button"
              disabled={decide.pending || refusal !== null}
              title={refusal ?? undefined}
              onClick={() =>
                void decide.run({ id: planId, decision, request: { revision, content_hash: contentHash, resources_hash: resourcesHash, comment } })
              }
              className={`rounded-md px-3 py-1.5 text-sm font-medium shadow-sm disabled:cursor-not-allowed disabled:opacity-50 ${className}`}
            >
              {label}
            </button>
          );
        })}
      </div>
      {(decideRefusal ?? approveRefusal) && !decide.error && <p className="text-sm text-slate-600">{decideRefusal ?? approveRefusal}</p>}
      <ActionError message={decide.error} className={BLOCK_ERROR} />
    </form>
  );
}
