'use client';

import { getViewportForBounds, useReactFlow, useStoreApi } from '@xyflow/react';
import { useCallback } from 'react';
import { OVERVIEW_TASKS } from '@/lib/flow/overview';
import { boundsOfTasks, type Rect } from '@/lib/flow/view-window';
import { useEditorStore } from './editor-context';

export interface FitTasksOptions {
  padding: number;
  maxZoom: number;
  /** React Flow's own minimum zoom when not given. */
  minZoom?: number;
  duration?: number;
}

/** Frames to wait for React Flow to measure its pane before a fit gives up. */
const SIZE_FRAMES = 10;

/** How a revealed or linked task is shown. */
export const FIT_TASKS = { maxZoom: 1.1, padding: 0.4 };
/** Frames to wait for a linked task to be drawn before the canvas counts as ready anyway. */
const DRAWN_FRAMES = 120;

/** Resolves when React Flow has drawn the node (or after DRAWN_FRAMES frames). */
export function whenDrawn(nodeId: string): Promise<void> {
  const selector = `.react-flow__node[data-id="${CSS.escape(nodeId)}"]`;
  return new Promise((resolve) => {
    const look = (framesLeft: number) => (document.querySelector(selector) || framesLeft === 0 ? resolve() : requestAnimationFrame(() => look(framesLeft - 1)));
    look(DRAWN_FRAMES);
  });
}

/** Sets the view to show a rectangle of the canvas once React Flow has measured its pane; resolves whether it did (false: gave up). */
export function useFitBounds(): (bounds: Rect, options: FitTasksOptions) => Promise<boolean> {
  const flow = useReactFlow();
  const rf = useStoreApi();
  return useCallback(
    (bounds, options) =>
      new Promise<boolean>((resolve) => {
        const place = (framesLeft: number) => {
          const { width, height, minZoom } = rf.getState();
          if (!width || !height) {
            if (framesLeft > 0) requestAnimationFrame(() => place(framesLeft - 1));
            else resolve(false);
            return;
          }
          const viewport = getViewportForBounds(bounds, width, height, options.minZoom ?? minZoom, options.maxZoom, options.padding);
          void flow.setViewport(viewport, { duration: options.duration }).then(() => resolve(true));
        };
        place(SIZE_FRAMES);
      }),
    [flow, rf],
  );
}

/**
 * Fits the view to tasks, computed from their saved positions: right even in the frame after
 * the positions changed (a layout just applied), before React Flow has drawn them there, and
 * for a big plan's tasks React Flow has not been given (lib/flow/view-window). Tasks without
 * a saved position (drawn at a fallback place) are fitted as React Flow drew them.
 */
export function useFitTasks(): (taskIds: readonly string[], options: FitTasksOptions) => void {
  const flow = useReactFlow();
  const fitBounds = useFitBounds();
  const store = useEditorStore();
  return useCallback(
    (taskIds, options) => {
      const { doc } = store.getState();
      const { positions } = doc.view;
      const placed = taskIds.every((id) => Object.hasOwn(positions, id));
      const bounds = placed || doc.plan.planned_tasks.length > OVERVIEW_TASKS ? boundsOfTasks(taskIds, positions) : null;
      if (bounds) void fitBounds(bounds, options);
      else void flow.fitView({ ...options, includeHiddenNodes: true, nodes: taskIds.map((id) => ({ id })) });
    },
    [flow, fitBounds, store],
  );
}
