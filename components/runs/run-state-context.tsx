'use client';

import { createContext } from 'react';
import type { TaskState } from '@/lib/runs/run-states';

/** On the run view's canvas: each task's live state in the run, drawn on its node. */
export const RunStateContext = createContext<ReadonlyMap<string, TaskState> | null>(null);
