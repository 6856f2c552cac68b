'use client';

import { useReactFlow, type Edge } from '@xyflow/react';
import { useCallback } from 'react';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import type { CanvasNode } from '@/lib/flow/plan-to-flow';
import { useEditorStore } from './editor-context';

/** Arrow keys move the selection this far; with Shift, NUDGE_FAR. */
const NUDGE = 10;
const NUDGE_FAR = 50;
const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * Where the keyboard goes when what it was on has just been deleted: to the task a deleted
 * dependency led into, else to the canvas itself, never to the page's <body> (from where the
 * next Tab starts at the top of the page).
 */
function keepFocusInCanvas(pane: HTMLElement | null, focused: Element | null, nextTaskIds: readonly string[]) {
  if (!pane || !focused || !pane.contains(focused)) return;
  requestAnimationFrame(() => {
    if (focused.isConnected && pane.contains(document.activeElement)) return;
    for (const id of nextTaskIds) {
      const node = pane.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
      if (node) return node.focus();
    }
    pane.focus();
  });
}

/** The canvas's own commands on the plan: delete (keys), add a task (double-click the pane), nudge the selection (arrow keys). */
export function useCanvasCommands(readOnly: boolean, pane: React.RefObject<HTMLElement | null>) {
  const store = useEditorStore();
  const flow = useReactFlow();

  const onDelete = useCallback(
    ({ nodes: gone, edges: cut }: { nodes: CanvasNode[]; edges: Edge[] }) => {
      const focused = document.activeElement;
      store.getState().deleteElements(
        gone.map((n) => n.id),
        cut.map((e) => ({ from: e.source, to: e.target })),
      );
      keepFocusInCanvas(pane.current, focused, cut.flatMap((e) => [e.target, e.source]));
    },
    [store, pane],
  );

  const onDoubleClick = useCallback(
    (event: React.MouseEvent) => {
      if (readOnly || !(event.target as HTMLElement).classList.contains('react-flow__pane')) return;
      const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      store.getState().addTask({}, { x: Math.round(at.x - NODE_SIZE.width / 2), y: Math.round(at.y - NODE_SIZE.height / 2) });
    },
    [flow, readOnly, store],
  );

  // Arrow keys move the selected tasks while focus is on the canvas (a node, an edge, the
  // pane), never while typing. Handled in the capture phase, before React Flow's own node
  // handler, so that a move goes through the plan as a named command: a burst of presses is
  // one undo step.
  const onKeyDownCapture = useCallback(
    (event: React.KeyboardEvent) => {
      const direction = ARROWS[event.key];
      if (!direction || readOnly || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement;
      if (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      if (store.getState().selectedTaskIds.length === 0) return;
      event.preventDefault();
      event.stopPropagation();
      const step = event.shiftKey ? NUDGE_FAR : NUDGE;
      store.getState().nudgeSelection(direction[0] * step, direction[1] * step);
    },
    [readOnly, store],
  );

  return { onDelete, onDoubleClick, onKeyDownCapture };
}
