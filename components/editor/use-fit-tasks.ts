'use client';

import { getViewportForBounds, useReactFlow, useStoreApi } from '@xyflow/react';
import { useCallback } from 'react';
import { OVERVIEW_TASKS } from '@/lib/flow/overview';
import { boundsOfTasks } from '@/lib/flow/view-window';
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

/**
 * Fits the view to tasks. A plan React Flow holds whole is fitted by React Flow, from the
 * nodes it measured; a big plan's canvas holds only the nodes near the view
 * (lib/flow/view-window), so its fit is computed from the saved positions.
 */
export function useFitTasks(): (taskIds: readonly string[], options: FitTasksOptions) => void {
  const flow = useReactFlow();
  const rf = useStoreApi();
  const store = useEditorStore();
  return useCallback(
    (taskIds, options) => {
      const { doc } = store.getState();
      if (doc.plan.planned_tasks.length <= OVERVIEW_TASKS) {
        void flow.fitView({ ...options, includeHiddenNodes: true, nodes: taskIds.map((id) => ({ id })) });
        return;
      }
      const bounds = boundsOfTasks(taskIds, doc.view.positions);
      if (!bounds) return;
      const place = (framesLeft: number) => {
        const { width, height, minZoom } = rf.getState();
        if (!width || !height) {
          if (framesLeft > 0) requestAnimationFrame(() => place(framesLeft - 1));
          return;
        }
        void flow.setViewport(getViewportForBounds(bounds, width, height, options.minZoom ?? minZoom, options.maxZoom, options.padding), { duration: options.duration });
      };
      place(SIZE_FRAMES);
    },
    [flow, rf, store],
  );
}
