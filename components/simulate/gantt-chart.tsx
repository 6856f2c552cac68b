import type { DryRunResult } from '@/lib/simulate/dry-run';
import { formatMs } from './format';

const ROW = 22;
const LABEL = 70;
const WIDTH = 900;
const STATUS_FILL = { ran: '#60a5fa', failed: '#e11d48', skipped: '#cbd5e1' } as const;
const MAX_BARS = 5000;

/** One row per worker, one bar per task that ran or failed; critical-path tasks are outlined. */
export function GanttChart({ result }: { result: DryRunResult }) {
  const span = Math.max(result.makespan_ms, 1);
  const scale = (WIDTH - LABEL - 10) / span;
  const critical = new Set(result.critical_path);
  const bars = result.tasks.filter((t) => t.worker !== null).slice(0, MAX_BARS);
  const height = result.workers * ROW + 24;
  return (
    <figure className="overflow-x-auto">
      <svg
        role="img"
        aria-label={`Timeline: ${bars.length} tasks on ${result.workers} workers over ${formatMs(result.makespan_ms)}`}
        width={WIDTH}
        height={height}
        className="text-[10px]"
      >
        {Array.from({ length: result.workers }, (_, w) => (
          <g key={w}>
            <text x={4} y={w * ROW + 15} className="fill-slate-500">
              worker {w + 1}
            </text>
            <line x1={LABEL} x2={WIDTH} y1={(w + 1) * ROW} y2={(w + 1) * ROW} className="stroke-slate-100" />
          </g>
        ))}
        {bars.map((task) => (
          <rect
            key={task.task_id}
            x={LABEL + task.start_ms * scale}
            y={task.worker! * ROW + 3}
            width={Math.max(1, (task.end_ms - task.start_ms) * scale)}
            height={ROW - 6}
            rx={2}
            fill={STATUS_FILL[task.status]}
            stroke={critical.has(task.task_id) ? '#b45309' : 'none'}
            strokeWidth={critical.has(task.task_id) ? 2 : 0}
          >
            <title>{`${task.task_id}: ${formatMs(task.start_ms)} – ${formatMs(task.end_ms)} (${task.status}${critical.has(task.task_id) ? ', critical path' : ''})`}</title>
          </rect>
        ))}
        <text x={LABEL} y={height - 6} className="fill-slate-500">
          0
        </text>
        <text x={WIDTH - 4} y={height - 6} textAnchor="end" className="fill-slate-500">
          {formatMs(result.makespan_ms)}
        </text>
      </svg>
      <figcaption className="mt-1 text-xs text-slate-500">
        Blue: would run · red: fails · outlined: critical path{result.tasks.length > MAX_BARS ? ` · first ${MAX_BARS.toLocaleString('en')} tasks drawn` : ''}
      </figcaption>
    </figure>
  );
}
