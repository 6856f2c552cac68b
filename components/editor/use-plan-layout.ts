'use client';

import { useEffect, useMemo, useState } from 'react';
import { layoutInWorker } from '@/lib/flow/layout-client';
import type { PlanDocument } from '@/lib/plan';

type Position = { x: number; y: number };

/**
 * Where each task of a read-only canvas stands: the positions the plan saved, and for a plan
 * without them (made over the API, as planners do) a layout made in the worker. `ready` is
 * false until that layout has come back; a task it missed gets a spot on a plain grid.
 */
export function usePlanLayout(doc: PlanDocument): { ready: boolean; positionOf: (taskId: string, index: number) => Position } {
  const tasks = doc.plan.planned_tasks;
  const saved = doc.view.positions;
  const [laidOut, setLaidOut] = useState<Record<string, Position> | null>(null);
  const unplaced = useMemo(() => tasks.some((t) => !saved[t.task_id]), [tasks, saved]);
  useEffect(() => {
    if (!unplaced) return;
    let cancelled = false;
    layoutInWorker(tasks)
      .then(({ positions }) => !cancelled && setLaidOut(positions))
      .catch(() => !cancelled && setLaidOut({}));
    return () => {
      cancelled = true;
    };
  }, [tasks, unplaced]);
  const positionOf = useMemo(
    () => (taskId: string, index: number) => saved[taskId] ?? laidOut?.[taskId] ?? { x: (index % 20) * 280, y: Math.floor(index / 20) * 120 },
    [saved, laidOut],
  );
  return { ready: !unplaced || laidOut !== null, positionOf };
}
