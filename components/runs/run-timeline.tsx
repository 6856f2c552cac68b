import type { TaskRunView } from '@/lib/api/run-schemas';
import { formatMs } from '@/components/simulate/format';
import { DataTable, type DataColumn } from '@/components/ui/data-table';
import { TASK_STATE_STYLE } from './run-state-style';

/** A task's predicted span in the dry run of the same revision, from the dry run's start. */
export interface PredictedSpan {
  start_ms: number;
  end_ms: number;
}

const time = (iso: string | null) => (iso ? iso.slice(11, 19) : '—');

const COLUMNS: DataColumn[] = [
  { id: 'task', header: 'Task', sortable: true },
  { id: 'state', header: 'State', sortable: true },
  { id: 'attempts', header: 'Attempts', sortable: true },
  { id: 'started', header: 'Started', sortable: true, className: 'font-mono' },
  { id: 'finished', header: 'Finished', sortable: true, className: 'font-mono' },
  { id: 'actual', header: 'Actual', sortable: true, className: 'w-1/3' },
];
const PREDICTED: DataColumn = { id: 'predicted', header: 'Dry run predicted', sortable: true, className: 'font-mono text-slate-600' };

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
  // The order it started in is the rows' own; a header sorts by another column.
  const ordered = [...tasks].sort((a, b) => (a.started_at ?? '\uffff').localeCompare(b.started_at ?? '\uffff') || a.task_id.localeCompare(b.task_id));
  return (
    <DataTable
      variant="plain"
      caption="Timeline: what ran, in the order it started"
      columns={predicted ? [...COLUMNS, PREDICTED] : COLUMNS}
      empty="No task has run yet."
      rows={ordered.map((task) => {
        const style = TASK_STATE_STYLE[task.state];
        const label = labels.get(task.task_id) ?? task.task_id;
        const start = task.started_at ? Date.parse(task.started_at) : null;
        const end = task.finished_at ? Date.parse(task.finished_at) : start;
        const guess = predicted?.get(task.task_id);
        const cells = [
          <button key="task" type="button" className="text-left font-medium text-brand-700 hover:underline" onClick={() => onSelect(task.task_id)}>
            {label}
          </button>,
          <span key="state" className={`rounded px-1 font-semibold ${style.badge}`}>
            {style.label}
          </span>,
          task.attempts,
          time(task.started_at),
          time(task.finished_at),
          start !== null && end !== null ? (
            <>
              <div className="relative h-3 rounded bg-slate-100" title={`${formatMs(end - start)}`}>
                <div className={`absolute inset-y-0 rounded ${style.badge}`} style={{ left: `${((start - t0) / span) * 100}%`, width: `${Math.max(1, ((end - start) / span) * 100)}%` }} />
              </div>
              <span className="sr-only">{formatMs(end - start)}</span>
            </>
          ) : null,
        ];
        if (predicted) cells.push(guess ? `${formatMs(guess.start_ms)} → ${formatMs(guess.end_ms)}` : '—');
        return {
          key: task.task_id,
          sortValues: {
            task: label,
            state: style.label,
            attempts: task.attempts,
            started: start,
            finished: task.finished_at ? Date.parse(task.finished_at) : null,
            actual: start !== null && end !== null ? end - start : null,
            predicted: guess ? guess.start_ms : null,
          },
          cells,
        };
      })}
    />
  );
}
