'use client';

import { createContext } from 'react';
import type { TaskVerdict } from '@/lib/simulate/task-verdicts';

/** What a dry run says of a task, drawn on its node. */
export type TaskSimState = TaskVerdict;

export const SimulationContext = createContext<ReadonlyMap<string, TaskSimState> | null>(null);

export const SIM_STYLE: Record<TaskSimState, { label: string; badge: string }> = {
  ran: { label: 'would run', badge: 'bg-emerald-100 text-emerald-800' },
  failed: { label: 'fails', badge: 'bg-rose-600 text-white' },
  skipped: { label: 'skipped', badge: 'bg-slate-300 text-slate-800' },
  finding: { label: 'finding', badge: 'bg-amber-300 text-amber-950' },
};
