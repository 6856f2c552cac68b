'use client';

import { useId, useRef, useState } from 'react';
import { reRequestReviewAction, submitForReviewAction } from '@/app/plans/[id]/gate-actions';
import { ActionError } from '@/components/form/action-error';
import { SMALL_BUTTON } from '@/components/form/styles';
import { useServerAction } from '@/components/query/use-server-action';

export interface ReviewerOption {
  username: string;
  role: string;
}

/**
 * Sends the saved head revision (exactly the one on screen) to the approvers; "Choose
 * reviewers" opens a list of the approvers to ask by name, who then find it in their inbox.
 * After a review, "Re-request review" submits it to the same reviewers again.
 */
export function SubmitForReviewButton({
  planId,
  revision,
  contentHash,
  reviewers = [],
  previousReviewers = [],
}: {
  planId: string;
  revision: number;
  contentHash: string;
  /** Who may be asked: approvers and admins, the signed-in user left out. */
  reviewers?: ReviewerOption[];
  /** Who reviewed the plan before and may still be asked: "Re-request review" asks them again. */
  previousReviewers?: string[];
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  // Either way the header should show the plan as it now is (a refusal is often "the plan
  // moved on"), so the next click submits the current head.
  const submit = useServerAction(submitForReviewAction, {
    refresh: 'always',
    invalidate: [['inbox']],
    onSuccess: () => {
      setChosen([]);
      setOpen(false);
    },
  });

  const again = useServerAction(reRequestReviewAction, { refresh: 'always', invalidate: [['inbox']] });
  const busy = submit.pending || again.pending;

  const close = () => {
    setOpen(false);
    toggleRef.current?.focus();
  };
  const flip = (username: string, on: boolean) => setChosen((list) => (on ? [...list, username] : list.filter((name) => name !== username)));

  return (
    <span className="relative flex flex-wrap items-center gap-2">
      <button
        type="button"
        disabled={busy}
        onClick={() => void submit.run({ id: planId, claim: { revision, content_hash: contentHash, ...(chosen.length ? { reviewers: chosen } : {}) } })}
        className="rounded-md bg-amber-700 px-2.5 py-1 text-xs font-medium text-white shadow-sm hover:bg-amber-800 disabled:opacity-60"
      >
        {submit.pending ? 'Submitting…' : `Submit r${revision} for review`}
      </button>
      {previousReviewers.length > 0 && (
        <>
          <button
            type="button"
            disabled={busy}
            aria-describedby={`${panelId}-again`}
            onClick={() => void again.run({ id: planId, claim: { revision, content_hash: contentHash } })}
            className="rounded-md bg-amber-700 px-2.5 py-1 text-xs font-medium text-white shadow-sm hover:bg-amber-800 disabled:opacity-60"
          >
            {again.pending ? 'Re-requesting…' : 'Re-request review'}
          </button>
          <span id={`${panelId}-again`} className="text-xs text-slate-700">
            of r{revision} from {previousReviewers.join(', ')}
          </span>
        </>
      )}
      {reviewers.length > 0 && (
        <button ref={toggleRef} type="button" aria-expanded={open} aria-controls={panelId} onClick={() => (open ? close() : setOpen(true))} className={SMALL_BUTTON}>
          Choose reviewers{chosen.length ? ` (${chosen.length})` : ''}
        </button>
      )}
      {chosen.length > 0 && !open && <span className="text-xs text-slate-700">Asking {chosen.join(', ')}</span>}
      {open && (
        <div
          id={panelId}
          className="absolute left-0 top-full z-30 mt-1 w-64 rounded-md border border-slate-200 bg-white p-3 shadow-lg"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              close();
            }
          }}
        >
          <fieldset>
            <legend className="text-sm font-medium text-slate-900">Ask for a review from</legend>
            <p className="mt-0.5 text-xs text-slate-600">Each one finds the request in their inbox.</p>
            <ul className="mt-2 max-h-56 space-y-1 overflow-y-auto">
              {reviewers.map((reviewer, index) => (
                <li key={reviewer.username}>
                  <span className="flex items-center gap-2 text-sm text-slate-800">
                    <input
                      id={`${panelId}-${index}`}
                      type="checkbox"
                      // Opening the list puts the keyboard on its first choice.
                      autoFocus={index === 0}
                      aria-describedby={`${panelId}-${index}-role`}
                      checked={chosen.includes(reviewer.username)}
                      onChange={(event) => flip(reviewer.username, event.target.checked)}
                      className="h-4 w-4 rounded border-slate-400"
                    />
                    <label htmlFor={`${panelId}-${index}`}>{reviewer.username}</label>
                    <span id={`${panelId}-${index}-role`} className="text-xs text-slate-600">
                      {reviewer.role}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          </fieldset>
          <button type="button" onClick={close} className={`${SMALL_BUTTON} mt-3`}>
            Done
          </button>
        </div>
      )}
      <ActionError message={submit.error ?? again.error} />
    </span>
  );
}
