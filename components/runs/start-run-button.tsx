'use client';

import { useRouter } from 'next/navigation';
import { startRunAction } from '@/app/runs/run-actions';
import { ActionError } from '@/components/form/action-error';
import { ConfirmButton } from '@/components/form/confirm-dialog';
import { SMALL_BUTTON, SMALL_PRIMARY_BUTTON } from '@/components/form/styles';
import { usePlanHead, type PlanHead } from '@/components/plan/plan-head';
import { useServerAction } from '@/components/query/use-server-action';

/**
 * Runs the approved head revision, exactly as approved (its revision and hash are sent, so a
 * page left open past a newer save is refused, not run). A run that stopped for a replan can
 * be continued instead: its completed tasks keep their outputs and are not run again.
 */
export function StartRunButton({ planId, rendered, replanRunId }: { planId: string; rendered: PlanHead; replanRunId: string | null }) {
  const head = usePlanHead(planId, rendered);
  const router = useRouter();
  const start = useServerAction(startRunAction, { refresh: 'never', onSuccess: ({ run_id }) => router.push(`/runs/${run_id}`) });
  if (head.status !== 'approved') return null;
  const run = (continueFrom?: string) =>
    void start.run({ planId, request: { revision: head.revision, content_hash: head.content_hash, ...(continueFrom ? { continue_from: continueFrom } : {}) } });
  return (
    <span className="flex items-center gap-2">
      <ConfirmButton
        label="Run"
        title={`Run revision ${head.revision}?`}
        confirmLabel="Run"
        className={SMALL_PRIMARY_BUTTON}
        confirmClassName={SMALL_PRIMARY_BUTTON}
        disabled={start.pending}
        onConfirm={() => run()}
      >
        Its tasks&apos; agents, tools and models are called now, exactly as revision {head.revision} was approved. Gated tasks wait for an approver.
      </ConfirmButton>
      {replanRunId && (
        <ConfirmButton
          label={`Continue run ${replanRunId.slice(0, 8)}`}
          title={`Continue run ${replanRunId.slice(0, 8)} with revision ${head.revision}?`}
          confirmLabel="Continue"
          className={SMALL_BUTTON}
          confirmClassName={SMALL_PRIMARY_BUTTON}
          disabled={start.pending}
          onConfirm={() => run(replanRunId)}
        >
          A run of revision {head.revision} starts now; the tasks run {replanRunId.slice(0, 8)} completed that this revision left unchanged keep their outputs and are not run again.
        </ConfirmButton>
      )}
      <ActionError message={start.error} />
    </span>
  );
}
