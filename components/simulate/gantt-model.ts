import type { DryRunResult, TaskRunStatus } from '@/lib/simulate/dry-run';
import { formatMs } from './format';

// What the Gantt and its table show of each task, and the chart's rows: one per worker, then
// one for the skipped tasks (drawn at the time they were skipped), each sorted by start.

export interface GanttTask {
  id: string;
  label: string;
  start: number;
  end: number;
  /** 0-based; null for a skipped task. */
  worker: number | null;
  status: TaskRunStatus;
  critical: boolean;
  finding: boolean;
  /** The task's cost estimate in USD; null when it has none. */
  cost: number | null;
  /** Its row in the chart. */
  row: number;
}

export interface GanttModel {
  tasks: GanttTask[];
  byId: Map<string, GanttTask>;
  /** Each row's tasks by start time. */
  rows: GanttTask[][];
  rowNames: string[];
  spanMs: number;
}

export const STATUS_TEXT: Record<TaskRunStatus, string> = { ran: 'ran', failed: 'failed', skipped: 'skipped' };

/** A time as the chart's names say it: seconds with one decimal from a second up, like the figures. */
export function timeText(ms: number, spanMs: number): string {
  if (spanMs < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return formatMs(ms);
}

/** The accessible name of a bar: "fetch, 0.0 s to 1.2 s, worker 1, ran". */
export function barName(task: GanttTask, spanMs: number): string {
  const when = task.status === 'skipped' ? `skipped at ${timeText(task.start, spanMs)}` : `${timeText(task.start, spanMs)} to ${timeText(task.end, spanMs)}`;
  const where = task.worker === null ? 'no worker' : `worker ${task.worker + 1}`;
  const extra = [task.critical ? 'critical path' : '', task.finding ? 'has a finding' : ''].filter(Boolean);
  return [task.label, when, where, task.status === 'skipped' ? null : STATUS_TEXT[task.status], ...extra].filter(Boolean).join(', ');
}

export function ganttModel(result: Pick<DryRunResult, 'tasks' | 'workers' | 'makespan_ms' | 'critical_path' | 'findings'>, labels: ReadonlyMap<string, string>, costs: ReadonlyMap<string, number | null>): GanttModel {
  const critical = new Set(result.critical_path);
  const withFinding = new Set(result.findings.map((f) => f.task_id));
  const hasSkipped = result.tasks.some((t) => t.worker === null);
  const rowNames = Array.from({ length: result.workers }, (_, w) => `worker ${w + 1}`);
  if (hasSkipped) rowNames.push('skipped');
  const rows: GanttTask[][] = rowNames.map(() => []);
  const tasks = result.tasks.map((t): GanttTask => {
    const row = t.worker === null ? result.workers : t.worker;
    const task: GanttTask = {
      id: t.task_id,
      label: labels.get(t.task_id) ?? t.task_id,
      start: t.start_ms,
      end: t.end_ms,
      worker: t.worker,
      status: t.status,
      critical: critical.has(t.task_id),
      finding: withFinding.has(t.task_id),
      cost: costs.get(t.task_id) ?? null,
      row,
    };
    rows[row]?.push(task);
    return task;
  });
  for (const row of rows) row.sort((a, b) => a.start - b.start || a.end - b.end);
  return { tasks, byId: new Map(tasks.map((t) => [t.id, t])), rows, rowNames, spanMs: Math.max(result.makespan_ms, 1) };
}

/** The index of the first task in `row` (sorted by start) that ends at or after `time`; tasks do not overlap on a worker. */
export function firstEndingAfter(row: readonly GanttTask[], time: number): number {
  let lo = 0;
  let hi = row.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (row[mid].end < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The task in `row` whose start is nearest `time`, for moving between rows by keyboard. */
export function nearestInRow(row: readonly GanttTask[], time: number): GanttTask | undefined {
  if (!row.length) return undefined;
  const i = Math.min(firstEndingAfter(row, time), row.length - 1);
  const candidates = [row[i - 1], row[i], row[i + 1]].filter((t): t is GanttTask => !!t);
  return candidates.reduce((best, t) => (Math.abs(t.start - time) < Math.abs(best.start - time) ? t : best));
}
