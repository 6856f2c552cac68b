'use client';

import { useReactFlow } from '@xyflow/react';
import { useEffect, useMemo, useState, type RefObject } from 'react';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import { layoutInWorker } from '@/lib/flow/layout-client';
import type { PlanDocument } from '@/lib/plan';

type Position = { x: number; y: number };

// Where the tasks of a read-only canvas (the dry run, the run view) stand, and what its view shows.

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

/**
 * The view of a read-only canvas: the first layout fits the plan, and a task selected
 * elsewhere (a timeline, a `?task=` link) is brought into view when it is not in view already.
 * A linked task is looked for once that first fit is done: looked for before, it was judged
 * against the view before the fit, and the fit then cut short its move into view.
 */
export function useCanvasView(ready: boolean, selectedId: string | null, wrapper: RefObject<HTMLElement | null>, fit: { padding: number; maxZoom: number }): void {
  const flow = useReactFlow();
  const [fitted, setFitted] = useState(false);
  useEffect(() => {
    if (!ready) return;
    let live = true;
    requestAnimationFrame(() => void flow.fitView(fit).then(() => live && setFitted(true)));
    return () => {
      live = false;
    };
  }, [ready, flow, fit]);
  useEffect(() => {
    if (!fitted || !selectedId) return;
    const node = flow.getNode(selectedId);
    if (!node) return;
    const { x, y, zoom } = flow.getViewport();
    const box = wrapper.current?.getBoundingClientRect();
    const left = node.position.x * zoom + x;
    const top = node.position.y * zoom + y;
    if (box && left >= 0 && top >= 0 && left + NODE_SIZE.width * zoom <= box.width && top + NODE_SIZE.height * zoom <= box.height) return;
    void flow.setCenter(node.position.x + NODE_SIZE.width / 2, node.position.y + NODE_SIZE.height / 2, { zoom: Math.max(zoom, 0.6), duration: 250 });
  }, [selectedId, fitted, flow, wrapper]);
}
