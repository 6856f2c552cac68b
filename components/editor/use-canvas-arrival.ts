'use client';

import type { Viewport } from '@xyflow/react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useCanvasFocusStore } from './canvas-focus';
import { useFitTasks } from './use-fit-tasks';

/** An aggregate opened from the overview is shown at a zoom its tasks read at. */
const OPENED_FIT = { padding: 0.1, minZoom: 0.5, maxZoom: 1.1 };

/**
 * Where the canvas opens. Where the page showed the linked task while the plan loaded, the canvas
 * opens with every task where it was on screen: the handed view is in the window's coordinates,
 * so React Flow is mounted once `pane` has been measured, still before the first paint (`openedAt`
 * is null until then, undefined when nothing was handed). Tasks to show on arrival from the
 * overview (an opened aggregate, a revealed task) are fitted; React Flow queues the fit until it
 * has the nodes. The editor's first task canvas does not fit itself: the editor places its view.
 */
export function useCanvasArrival() {
  const focus = useCanvasFocusStore();
  const pane = useRef<HTMLDivElement>(null);
  const [handed] = useState(() => focus.getState().takeOpenedAt());
  // The editor's first task canvas is placed by the editor (plan-editor.tsx); a later one fits itself.
  const [fitsItself] = useState(() => !focus.getState().takeFirstCanvas());
  const [openedAt, setOpenedAt] = useState<Viewport | null | undefined>(handed ? null : undefined);
  useLayoutEffect(() => {
    if (openedAt !== null || !handed || !pane.current) return;
    const { left, top } = pane.current.getBoundingClientRect();
    setOpenedAt({ x: handed.x - left, y: handed.y - top, zoom: handed.zoom });
  }, [handed, openedAt]);
  const fitTasks = useFitTasks();
  useEffect(() => {
    const fit = focus.getState().takePendingFit();
    if (fit) fitTasks(fit, OPENED_FIT);
  }, [focus, fitTasks]);
  return { pane, openedAt, fitsItself };
}
