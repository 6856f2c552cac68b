'use client';

import { retryTaskAction } from '@/app/runs/run-actions';
import { ActionError } from '@/components/form/action-error';
import { SMALL_BUTTON } from '@/components/form/styles';
import { useServerAction } from '@/components/query/use-server-action';
import type { TaskRunView } from '@/lib/api/run-schemas';
import { ReplanFailedLink } from './replan-failed-link';
import { TASK_STATE_STYLE } from './run-state-style';
import { runKey } from './use-live-run';

function Json({ label, value }: { label: string; value: unknown }) {
  return (
    <div>
      <h4 className="text-xs font-medium text-slate-600">{label}</h4>
      {value === null || value === undefined ? (
        <p className="text-xs text-slate-500">None yet.</p>
      ) : (
        <pre aria-label={label} tabIndex={0} className="mt-1 max-h-48 overflow-auto rounded bg-slate-50 p-2 font-mono text-[11px]">
          {JSON.stringify(value, null, 2)}
        </pre>
      )}
    </div>
  );
}

/** The selected task in this run: its state, attempts, input, output and error; a failed one can be retried or replanned. */
export function TaskRunPanel({ runId, planId, task, label, canControl }: { runId: string; planId: string; task: TaskRunView | null; label: string; canControl: boolean }) {
  const retry = useServerAction(retryTaskAction, { refresh: 'never', invalidate: [runKey(runId)] });
  if (!task) {
    return (
      <section aria-label="Task in this run" className="p-4 text-sm text-slate-600">
        Select a task on the canvas or in the timeline to see what it was sent and what it answered.
      </section>
    );
  }
  const style = TASK_STATE_STYLE[task.state];
  return (
    <section aria-label="Task in this run" className="space-y-3 p-4 text-sm">
      <header>
        <h3 className="font-semibold">{label}</h3>
        <p className="font-mono text-[11px] text-slate-500">{task.task_id}</p>
      </header>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-slate-600">State</dt>
        <dd>
          <span className={`rounded px-1 font-semibold ${style.badge}`}>{style.label}</span>
        </dd>
        <dt className="text-slate-600">Attempts</dt>
        <dd>{task.attempts}</dd>
        <dt className="text-slate-600">Started</dt>
        <dd className="font-mono">{task.started_at ?? '—'}</dd>
        <dt className="text-slate-600">Finished</dt>
        <dd className="font-mono">{task.finished_at ?? '—'}</dd>
        {task.carried_from && (
          <>
            <dt className="text-slate-600">Output from</dt>
            <dd className="font-mono">run {task.carried_from.slice(0, 8)}</dd>
          </>
        )}
        {task.gate_decided_by && (
          <>
            <dt className="text-slate-600">Gate decided by</dt>
            <dd>{task.gate_decided_by}</dd>
          </>
        )}
      </dl>
      {task.error && (
        <div>
          <h4 className="text-xs font-medium text-slate-600">Error</h4>
          <p className="mt-1 rounded bg-rose-50 p-2 text-xs text-rose-800">{task.error}</p>
        </div>
      )}
      <Json label="Input" value={task.input} />
      <Json label="Output" value={task.output} />
      {canControl && (task.state === 'failed' || task.state === 'cancelled') && (
        <div className="space-y-1">
          <div className="flex items-center gap-3">
            <button type="button" className={SMALL_BUTTON} disabled={retry.pending} onClick={() => void retry.run({ runId, taskId: task.task_id })}>
              Retry task
            </button>
            {task.state === 'failed' && <ReplanFailedLink planId={planId} runId={runId} taskIds={[task.task_id]} className="text-xs text-brand-700 underline" />}
          </div>
          <ActionError message={retry.error} className="block text-xs text-rose-700" />
        </div>
      )}
    </section>
  );
}
