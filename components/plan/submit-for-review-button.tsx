'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { submitForReviewAction } from '@/app/plans/[id]/gate-actions';

/** Sends the saved head revision (exactly the one on screen) to the approvers. */
export function SubmitForReviewButton({ planId, revision, contentHash }: { planId: string; revision: number; contentHash: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="flex items-center gap-2">
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const result = await submitForReviewAction({ id: planId, claim: { revision, content_hash: contentHash } });
            setError(result.ok ? null : result.error.message);
            // Either way the header should show the plan as it now is (a refusal is often
            // "the plan moved on"), so the next click submits the current head.
            router.refresh();
          })
        }
        className="rounded-md bg-amber-700 px-2.5 py-1 text-xs font-medium text-white shadow-sm hover:bg-amber-800 disabled:opacity-60"
      >
        {pending ? 'Submitting…' : `Submit r${revision} for review`}
      </button>
      {error && (
        <span role="alert" className="text-xs text-rose-700">
          {error}
        </span>
      )}
    </span>
  );
}
