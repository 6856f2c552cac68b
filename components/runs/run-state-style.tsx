import type { RunState, TaskState } from '@/lib/runs/run-states';

// The words and colours of run and task states, wherever a run is shown: the words carry
// the meaning, the colours only repeat it.

export const TASK_STATE_STYLE: Record<TaskState, { label: string; badge: string; node: string }> = {
  pending: { label: 'pending', badge: 'bg-slate-200 text-slate-800', node: 'bg-white' },
  blocked: { label: 'blocked', badge: 'bg-slate-500 text-white', node: 'bg-slate-100' },
  running: { label: 'running', badge: 'bg-sky-600 text-white', node: 'bg-sky-50' },
  retrying: { label: 'retrying', badge: 'bg-amber-400 text-amber-950', node: 'bg-amber-50' },
  awaiting_approval: { label: 'awaiting approval', badge: 'bg-violet-600 text-white', node: 'bg-violet-50' },
  succeeded: { label: 'succeeded', badge: 'bg-emerald-700 text-white', node: 'bg-emerald-50' },
  failed: { label: 'failed', badge: 'bg-rose-700 text-white', node: 'bg-rose-50' },
  skipped: { label: 'skipped', badge: 'bg-slate-300 text-slate-800', node: 'bg-slate-50' },
  cancelled: { label: 'cancelled', badge: 'bg-slate-600 text-white', node: 'bg-slate-100' },
};

export const RUN_STATE_STYLE: Record<RunState, { label: string; badge: string }> = {
  running: { label: 'running', badge: 'bg-sky-600 text-white' },
  paused: { label: 'paused', badge: 'bg-amber-400 text-amber-950' },
  awaiting_approval: { label: 'awaiting approval', badge: 'bg-violet-600 text-white' },
  needs_replan: { label: 'needs replan', badge: 'bg-orange-600 text-white' },
  succeeded: { label: 'succeeded', badge: 'bg-emerald-700 text-white' },
  failed: { label: 'failed', badge: 'bg-rose-700 text-white' },
  cancelled: { label: 'cancelled', badge: 'bg-slate-600 text-white' },
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
