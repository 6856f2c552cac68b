'use client';

import { useRouter } from 'next/navigation';
import { startRunAction } from '@/app/runs/run-actions';
import { ActionError } from '@/components/form/action-error';
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
      <button type="button" className={SMALL_PRIMARY_BUTTON} disabled={start.pending} onClick={() => run()}>
        Run
      </button>
      {replanRunId && (
        <button type="button" className={SMALL_BUTTON} disabled={start.pending} title={`Continue run ${replanRunId.slice(0, 8)}: its completed tasks are not run again`} onClick={() => run(replanRunId)}>
          Continue after replan
        </button>
      )}
      <ActionError message={start.error} />
    </span>
  );
}
