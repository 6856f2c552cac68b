'use client';

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { AXIS, LABEL_W, MAX_VISIBLE_HEIGHT, MAX_WIDTH, MAX_ZOOM, ROW, SKIPPED_W, type View } from './gantt-geometry';
import type { GanttModel, GanttTask } from './gantt-model';

export interface GanttViewport {
  scroller: React.RefObject<HTMLDivElement | null>;
  view: View;
  zoom: number;
  /** The drawn timeline's width at this zoom, in px. */
  width: number;
  pxPerMs: number;
  /** Zooms by `factor`, keeping the time at `atX` (px from the chart's left; the centre by default) in place. */
  zoomBy: (factor: number, atX?: number) => void;
  fit: () => void;
  /** Scrolls a task's bar into view, if it is not. */
  reveal: (task: GanttTask) => void;
  scrollPosition: () => { left: number; top: number } | null;
  scrollTo: (left: number, top: number) => void;
}

/**
 * Where the timeline is looked at: the scrolling box's size and scroll (read only when it moved
 * far enough to need other bars drawn), the zoom (buttons, Ctrl+wheel) and scrolling a bar into view.
 */
export function useGanttViewport(model: GanttModel): GanttViewport {
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<View>({ left: 0, top: 0, width: 0, height: MAX_VISIBLE_HEIGHT });
  const [zoom, setZoom] = useState(1);
  const anchor = useRef<{ time: number; x: number } | null>(null);

  const baseWidth = Math.max(200, view.width - LABEL_W);
  const width = Math.min(MAX_WIDTH, baseWidth * zoom);
  const pxPerMs = width / model.spanMs;

  // Follow the card's width, and where the operator has scrolled.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let last: View = { left: -1, top: -1, width: -1, height: -1 };
    // The bars drawn reach half a screen beyond the view, so a scroll of less than a quarter
    // screen needs nothing new drawn: the chart is windowed again only past that.
    const read = (force: boolean) => {
      const next = { left: el.scrollLeft, top: el.scrollTop, width: el.clientWidth, height: el.clientHeight };
      const moved = Math.abs(next.left - last.left) > next.width / 4 || Math.abs(next.top - last.top) > next.height / 4;
      if (!force && !moved && next.width === last.width && next.height === last.height) return;
      last = next;
      setView(next);
    };
    read(true);
    const observer = new ResizeObserver(() => read(true));
    observer.observe(el);
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => read(false));
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, []);

  // After a zoom, keep the time that was under the pointer (or the centre) where it was.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !anchor.current) return;
    el.scrollLeft = Math.max(0, anchor.current.time * pxPerMs - anchor.current.x);
    anchor.current = null;
  }, [pxPerMs]);

  const zoomBy = useCallback(
    (factor: number, atX?: number) => {
      const el = scroller.current;
      if (!el) return;
      const chartX = atX ?? (el.clientWidth - LABEL_W) / 2;
      anchor.current = { time: (el.scrollLeft + chartX) / pxPerMs, x: chartX };
      setZoom((z) => Math.min(MAX_ZOOM, Math.max(1, z * factor)));
    },
    [pxPerMs],
  );
  const fit = useCallback(() => setZoom(1), []);

  // Ctrl+wheel zooms; a plain wheel scrolls the page (or this chart) as usual.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const box = el.getBoundingClientRect();
      zoomBy(event.deltaY < 0 ? 1.5 : 1 / 1.5, event.clientX - box.left - LABEL_W);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [zoomBy]);

  const reveal = useCallback(
    (task: GanttTask) => {
      const el = scroller.current;
      if (!el) return;
      const chartWidth = el.clientWidth - LABEL_W;
      const left = task.start * pxPerMs;
      const right = Math.max(left + SKIPPED_W, task.end * pxPerMs);
      if (left < el.scrollLeft || right > el.scrollLeft + chartWidth) el.scrollLeft = Math.max(0, left - chartWidth / 4);
      const top = task.row * ROW;
      const visible = el.clientHeight - AXIS;
      if (top < el.scrollTop || top + ROW > el.scrollTop + visible) el.scrollTop = Math.max(0, top - visible / 2);
    },
    [pxPerMs],
  );

  const scrollPosition = useCallback(() => (scroller.current ? { left: scroller.current.scrollLeft, top: scroller.current.scrollTop } : null), []);
  const scrollTo = useCallback((left: number, top: number) => {
    const el = scroller.current;
    if (!el) return;
    el.scrollLeft = left;
    el.scrollTop = top;
  }, []);

  return { scroller, view, zoom, width, pxPerMs, zoomBy, fit, reveal, scrollPosition, scrollTo };
}
