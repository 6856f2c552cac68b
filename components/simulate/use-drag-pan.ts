'use client';

import { useRef, type PointerEvent } from 'react';

export interface Scrolling {
  scrollPosition: () => { left: number; top: number } | null;
  scrollTo: (left: number, top: number) => void;
}

/** Dragging the background of a scrolling box pans it; a press on a bar (data-task-id) is the bar's. */
export function useDragPan({ scrollPosition, scrollTo }: Scrolling) {
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  function onPointerDown(event: PointerEvent<Element>) {
    const at = scrollPosition();
    if (!at || (event.target as Element).closest('[data-task-id]') || event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY, ...at };
    event.currentTarget.setPointerCapture(event.pointerId);
  }
  function onPointerMove(event: PointerEvent<Element>) {
    if (!drag.current) return;
    scrollTo(drag.current.left - (event.clientX - drag.current.x), drag.current.top - (event.clientY - drag.current.y));
  }
  const end = () => {
    drag.current = null;
  };
  return { onPointerDown, onPointerMove, onPointerUp: end, onPointerCancel: end };
}
