'use client';

import Link from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { startRunAction } from '@/app/runs/run-actions';
import { ActionError } from '@/components/form/action-error';
import { ConfirmButton } from '@/components/form/confirm-dialog';
import { SMALL_PRIMARY_BUTTON } from '@/components/form/styles';
import type { PlanHead } from '@/components/plan/plan-head';
import { useServerAction } from '@/components/query/use-server-action';
import type { RunResponse } from '@/lib/api/run-schemas';
import { ReplanFailedLink } from './replan-failed-link';

const SHOWN_FAILURES = 3;

/**
 * What the operator can do next with a run that stopped for a replan, always in view: which
 * task failed and why, then "Replan this task" until a newer revision is approved, then
 * "Continue with revision N"; once continued, a link to the run that continues it.
 */
export function RunNextStep({
  run,
  labels,
  canControl,
  head,
  onShowTask,
}: {
  run: RunResponse;
  labels: ReadonlyMap<string, string>;
  canControl: boolean;
  /** The plan's head revision, as the page was rendered. */
  head: PlanHead;
  onShowTask: (taskId: string) => void;
}) {
  const router = useRouter();
  const start = useServerAction(startRunAction, { refresh: 'never', onSuccess: ({ run_id }) => router.push(`/runs/${run_id}`) });
  if (run.continued_by) {
    return (
      <p role="status" className="rounded-lg border border-slate-200 bg-white px-4 py-2 text-sm">
        This run was continued in{' '}
        <Link href={`/runs/${run.continued_by}`} className="font-medium text-brand-700 underline">
          run {run.continued_by.slice(0, 8)}
        </Link>
        : its succeeded tasks were carried over there.
      </p>
    );
  }
  const newer = head.status === 'approved' && head.revision > run.revision ? head : null;
  // A cancelled or failed run can be continued too, once there is something newer to continue with.
  if (run.state !== 'needs_replan' && !(newer && (run.state === 'cancelled' || run.state === 'failed'))) return null;
  const failed = run.tasks.filter((t) => t.state === 'failed');
  return (
    <section aria-labelledby="next-step-heading" className="space-y-2 rounded-lg border border-orange-300 bg-orange-50 px-4 py-3 text-sm">
      <h2 id="next-step-heading" className="font-semibold text-orange-950">
        {run.state !== 'needs_replan'
          ? `The run was ${run.state}`
          : failed.length === 1
            ? 'A task failed: the run needs a replan'
            : `${failed.length} tasks failed: the run needs a replan`}
      </h2>
      <ul className="space-y-1">
        {failed.slice(0, SHOWN_FAILURES).map((task) => (
          <li key={task.task_id}>
            <button type="button" className="font-medium text-slate-900 underline" onClick={() => onShowTask(task.task_id)}>
              {labels.get(task.task_id) ?? task.task_id}
            </button>
            : <span className="text-slate-800">{task.error ?? 'failed'}</span>
          </li>
        ))}
        {failed.length > SHOWN_FAILURES && <li className="text-slate-700">and {failed.length - SHOWN_FAILURES} more (see the timeline)</li>}
      </ul>
      {canControl && (
        <div className="flex flex-wrap items-center gap-3">
          {newer ? (
            <>
              <span>Revision {newer.revision} is approved.</span>
              <ConfirmButton
                label={`Continue with revision ${newer.revision}`}
                title={`Continue with revision ${newer.revision}?`}
                confirmLabel={`Continue with revision ${newer.revision}`}
                confirmClassName={SMALL_PRIMARY_BUTTON}
                className={SMALL_PRIMARY_BUTTON}
                disabled={start.pending}
                onConfirm={() => void start.run({ planId: run.plan_id, request: { revision: newer.revision, content_hash: newer.content_hash, continue_from: run.run_id } })}
              >
                A new run of revision {newer.revision} starts now and calls its tasks&apos; agents and tools. The tasks this run completed that revision {newer.revision} left
                unchanged keep their outputs and are not run again.
              </ConfirmButton>
            </>
          ) : (
            failed.length > 0 && (
              <>
                <ReplanFailedLink planId={run.plan_id} runId={run.run_id} taskIds={failed.map((t) => t.task_id)} className="font-medium text-brand-700 underline" />
                <span className="text-slate-700">then submit and approve the new revision to continue from here.</span>
              </>
            )
          )}
          <ActionError message={start.error} />
        </div>
      )}
    </section>
  );
}
