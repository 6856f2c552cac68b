'use client';

import Link from '@/components/ui/link';
import { retryTaskAction } from '@/app/runs/run-actions';
import { ActionError } from '@/components/form/action-error';
import { SMALL_BUTTON } from '@/components/form/styles';
import { useServerAction } from '@/components/query/use-server-action';
import type { TaskRunView } from '@/lib/api/run-schemas';
import { JsonViewer } from './json-viewer';
import { ReplanFailedLink } from './replan-failed-link';
import { TASK_STATE_STYLE, taskDuration } from './run-state-style';
import { runKey } from './use-live-run';

function GateDecision({ gate }: { gate: NonNullable<TaskRunView['gate']> }) {
  const verb = gate.decision === 'approve' ? 'Approved' : 'Rejected';
  return (
    <div className="rounded border border-violet-200 bg-violet-50 p-2 text-xs">
      <p>
        <span className="font-semibold">
          {verb} at the gate by {gate.decided_by}
        </span>{' '}
        <time dateTime={gate.decided_at}>{new Date(gate.decided_at).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC</time>
      </p>
      {gate.edited && <p className="mt-1 font-semibold text-violet-900">Input edited at the gate by {gate.decided_by}: the task was sent their input.</p>}
      {gate.comment && <p className="mt-1">“{gate.comment}”</p>}
      {gate.input_hash && (
        <p className="mt-1 break-all font-mono text-[10px] text-slate-700" title="SHA-256 of the approved input's RFC 8785 JSON">
          {gate.input_hash}
        </p>
      )}
    </div>
  );
}

/** The selected task in this run: state, attempts, timing, the gate's decision, its input, output and error; a failed one can be retried or replanned. */
export function TaskRunPanel({
  runId,
  planId,
  task,
  label,
  canRetry,
  now,
  onClose,
}: {
  runId: string;
  planId: string;
  task: TaskRunView;
  label: string;
  /** The viewer may retry it: an editor, on a run that is neither finished nor continued elsewhere. */
  canRetry: boolean;
  now: number;
  onClose: () => void;
}) {
  const retry = useServerAction(retryTaskAction, { refresh: 'never', invalidate: [runKey(runId)] });
  const style = TASK_STATE_STYLE[task.state];
  const duration = taskDuration(task, now);
  return (
    <section
      aria-label={`Task ${label} in this run`}
      className="space-y-3 p-4 text-sm"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <header className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold">{label}</h3>
          <p className="font-mono text-[11px] text-slate-600">{task.task_id}</p>
        </div>
        <button type="button" className={SMALL_BUTTON} onClick={onClose}>
          Close<span className="sr-only"> task {label}</span>
        </button>
      </header>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-slate-600">State</dt>
        <dd>
          <span className={`rounded px-1 font-semibold ${style.badge}`}>
            <span aria-hidden>{style.icon} </span>
            {style.label}
          </span>
        </dd>
        <dt className="text-slate-600">Attempts</dt>
        <dd>
          {task.carried_from ? (
            <>
              none here: carried from{' '}
              <Link href={`/runs/${task.carried_from}?task=${encodeURIComponent(task.task_id)}`} className="text-brand-700 underline">
                run {task.carried_from.slice(0, 8)}
              </Link>
            </>
          ) : (
            <>
              {task.attempts}
              {task.generation > 1 && ` (try ${task.generation}, after an operator's retry)`}
            </>
          )}
        </dd>
        <dt className="text-slate-600">Started</dt>
        <dd className="font-mono">{task.started_at ?? '—'}</dd>
        <dt className="text-slate-600">Finished</dt>
        <dd className="font-mono">{task.finished_at ?? '—'}</dd>
        {duration && (
          <>
            <dt className="text-slate-600">{task.finished_at ? 'Took' : 'Running for'}</dt>
            <dd>{duration}</dd>
          </>
        )}
      </dl>
      {task.gate && <GateDecision gate={task.gate} />}
      {task.error && (
        <div>
          <h4 className="text-xs font-medium text-slate-700">Error</h4>
          <p className="mt-1 rounded bg-rose-50 p-2 text-xs text-rose-800">{task.error}</p>
        </div>
      )}
      {canRetry && (task.state === 'failed' || task.state === 'cancelled') && (
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
      <JsonViewer label="Input" value={task.input} />
      <JsonViewer label="Output" value={task.output} />
    </section>
  );
}
