import type { TaskRunView } from '@/lib/api/run-schemas';
import { formatMs } from '@/components/simulate/format';
import { TASK_STATE_STYLE } from './run-state-style';

/** A task's predicted span in the dry run of the same revision, from the dry run's start. */
export interface PredictedSpan {
  start_ms: number;
  end_ms: number;
}

const time = (iso: string | null) => (iso ? iso.slice(11, 19) : '—');

/**
 * What actually ran, in the order it started: each task's state, attempts, start and finish
 * with a bar on the run's own time scale, and beside it the dry run's prediction.
 */
export function RunTimeline({
  tasks,
  labels,
  predicted,
  onSelect,
}: {
  tasks: TaskRunView[];
  labels: ReadonlyMap<string, string>;
  predicted: ReadonlyMap<string, PredictedSpan> | null;
  onSelect: (taskId: string) => void;
}) {
  const started = tasks.filter((t) => t.started_at).map((t) => Date.parse(t.started_at!));
  const ends = tasks.flatMap((t) => [t.started_at, t.finished_at]).filter((v): v is string => !!v).map(Date.parse);
  const t0 = started.length ? Math.min(...started) : 0;
  const span = Math.max(1, (ends.length ? Math.max(...ends) : 0) - t0);
  const ordered = [...tasks].sort((a, b) => (a.started_at ?? '\uffff').localeCompare(b.started_at ?? '\uffff') || a.task_id.localeCompare(b.task_id));
  return (
    <table className="w-full text-left text-xs">
      <caption className="sr-only">Timeline: what ran, in the order it started</caption>
      <thead className="text-slate-600">
        <tr>
          <th scope="col" className="py-1 pr-2 font-medium">Task</th>
          <th scope="col" className="py-1 pr-2 font-medium">State</th>
          <th scope="col" className="py-1 pr-2 font-medium">Attempts</th>
          <th scope="col" className="py-1 pr-2 font-medium">Started</th>
          <th scope="col" className="py-1 pr-2 font-medium">Finished</th>
          <th scope="col" className="w-1/3 py-1 pr-2 font-medium">Actual</th>
          {predicted && <th scope="col" className="py-1 font-medium">Dry run predicted</th>}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {ordered.map((task) => {
          const style = TASK_STATE_STYLE[task.state];
          const start = task.started_at ? Date.parse(task.started_at) : null;
          const end = task.finished_at ? Date.parse(task.finished_at) : start;
          const guess = predicted?.get(task.task_id);
          return (
            <tr key={task.task_id}>
              <td className="py-1 pr-2">
                <button type="button" className="text-left font-medium text-brand-700 hover:underline" onClick={() => onSelect(task.task_id)}>
                  {labels.get(task.task_id) ?? task.task_id}
                </button>
              </td>
              <td className="py-1 pr-2">
                <span className={`rounded px-1 font-semibold ${style.badge}`}>{style.label}</span>
              </td>
              <td className="py-1 pr-2">{task.attempts}</td>
              <td className="py-1 pr-2 font-mono">{time(task.started_at)}</td>
              <td className="py-1 pr-2 font-mono">{time(task.finished_at)}</td>
              <td className="py-1 pr-2">
                {start !== null && end !== null ? (
                  <div className="relative h-3 rounded bg-slate-100" title={`${formatMs(end - start)}`}>
                    <div className={`absolute inset-y-0 rounded ${style.badge}`} style={{ left: `${((start - t0) / span) * 100}%`, width: `${Math.max(1, ((end - start) / span) * 100)}%` }} />
                  </div>
                ) : null}
                {start !== null && end !== null && <span className="sr-only">{formatMs(end - start)}</span>}
              </td>
              {predicted && <td className="py-1 font-mono text-slate-600">{guess ? `${formatMs(guess.start_ms)} → ${formatMs(guess.end_ms)}` : '—'}</td>}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
