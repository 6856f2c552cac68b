import { formatMs } from '@/components/simulate/format';
import type { TaskRunView } from '@/lib/api/run-schemas';
import type { RunState, TaskState } from '@/lib/runs/run-states';

// The words and colours of run and task states, wherever a run is shown: the words carry
// the meaning, the colours only repeat it.

export const TASK_STATE_STYLE: Record<TaskState, { label: string; icon: string; badge: string; node: string; border: string }> = {
  pending: { label: 'pending', icon: '○', badge: 'bg-slate-200 text-slate-800', node: 'bg-white', border: 'border-slate-300' },
  blocked: { label: 'blocked', icon: '⊘', badge: 'bg-slate-600 text-white', node: 'bg-slate-100', border: 'border-rose-300 border-dashed' },
  running: { label: 'running', icon: '▶', badge: 'bg-sky-700 text-white', node: 'bg-sky-50', border: 'border-sky-600' },
  retrying: { label: 'retrying', icon: '↻', badge: 'bg-amber-400 text-amber-950', node: 'bg-amber-50', border: 'border-amber-500' },
  awaiting_approval: { label: 'awaiting approval', icon: '✋', badge: 'bg-violet-700 text-white', node: 'bg-violet-50', border: 'border-violet-600' },
  succeeded: { label: 'succeeded', icon: '✓', badge: 'bg-emerald-700 text-white', node: 'bg-emerald-50', border: 'border-emerald-600' },
  failed: { label: 'failed', icon: '✕', badge: 'bg-rose-700 text-white', node: 'bg-rose-50', border: 'border-rose-600' },
  skipped: { label: 'skipped', icon: '–', badge: 'bg-slate-300 text-slate-800', node: 'bg-slate-50', border: 'border-slate-300' },
  cancelled: { label: 'cancelled', icon: '■', badge: 'bg-slate-700 text-white', node: 'bg-slate-100', border: 'border-slate-400' },
};

export const RUN_STATE_STYLE: Record<RunState, { label: string; badge: string }> = {
  running: { label: 'running', badge: 'bg-sky-700 text-white' },
  paused: { label: 'paused', badge: 'bg-amber-400 text-amber-950' },
  awaiting_approval: { label: 'awaiting approval', badge: 'bg-violet-700 text-white' },
  needs_replan: { label: 'needs replan', badge: 'bg-orange-700 text-white' },
  succeeded: { label: 'succeeded', badge: 'bg-emerald-700 text-white' },
  failed: { label: 'failed', badge: 'bg-rose-700 text-white' },
  cancelled: { label: 'cancelled', badge: 'bg-slate-700 text-white' },
};

export function RunStateChip({ state }: { state: RunState }) {
  const style = RUN_STATE_STYLE[state];
  return <span className={`rounded px-2 py-0.5 text-xs font-semibold ${style.badge}`}>{style.label}</span>;
}

/** A run's tasks by state, as words: "2 succeeded · 1 awaiting approval". */
export const taskCountsText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${TASK_STATE_STYLE[state as TaskState]?.label ?? state}`)
    .join(' · ');

/** How long a task took, or has been going: "1.2 s"; null before it started. */
export function taskDuration(task: Pick<TaskRunView, 'started_at' | 'finished_at'>, now: number): string | null {
  if (!task.started_at) return null;
  const end = task.finished_at ? Date.parse(task.finished_at) : now;
  return formatMs(Math.max(0, end - Date.parse(task.started_at)));
}

/** Its attempts as words: "2 attempts", or where its output came from when it was carried over. */
export const attemptsText = (task: Pick<TaskRunView, 'attempts' | 'carried_from'>) =>
  task.carried_from ? `carried from run ${task.carried_from.slice(0, 8)}` : `${task.attempts} attempt${task.attempts === 1 ? '' : 's'}`;
