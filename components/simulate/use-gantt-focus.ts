'use client';

import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { nearestInRow, type GanttModel, type GanttTask } from './gantt-model';

export interface GanttFocus {
  focusedId: string | null;
  /** The one bar in the tab order. */
  tabStop: string | null;
  /** The bar whose tooltip shows: the hovered one, else the one the keyboard focused. */
  tipId: string | null;
  hoverId: string | null;
  setHoverId: (id: string | null) => void;
  /** `visible`: focus the keyboard moved (:focus-visible), not a click's. */
  onFocusBar: (id: string, visible: boolean) => void;
  onKeyDown: (event: KeyboardEvent<SVGSVGElement>) => void;
  /** A pointer took over from the keyboard: no tooltip for the focused bar. */
  onPointer: () => void;
}

/**
 * The bars are one tab stop (roving focus): arrow keys move between bars (along a row, or to the
 * nearest in time on the next row), Home and End to a row's ends, Enter or Space selects.
 */
export function useGanttFocus({
  model,
  selectedId,
  onSelect,
  reveal,
  scroller,
}: {
  model: GanttModel;
  selectedId: string | null;
  onSelect: (taskId: string) => void;
  reveal: (task: GanttTask) => void;
  scroller: React.RefObject<HTMLDivElement | null>;
}): GanttFocus {
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [hoverId, setHoverId] = useState<string | null>(null);
  const [keyboardFocus, setKeyboardFocus] = useState(false);
  const focusAfterRender = useRef<string | null>(null);
  const onFocusBar = useCallback((id: string, visible: boolean) => {
    setFocusedId(id);
    setKeyboardFocus(visible);
  }, []);

  // The roving tab stop: the focused bar, else the selected one, else the first to start.
  const tabStop = useMemo(() => {
    if (focusedId && model.byId.has(focusedId)) return focusedId;
    if (selectedId && model.byId.has(selectedId)) return selectedId;
    let first: GanttTask | undefined;
    for (const row of model.rows) if (row[0] && (!first || row[0].start < first.start)) first = row[0];
    return first?.id ?? null;
  }, [focusedId, selectedId, model]);

  // A bar moved to may not have been drawn yet: it is focused once it is.
  useEffect(() => {
    const id = focusAfterRender.current;
    if (!id) return;
    focusAfterRender.current = null;
    scroller.current?.querySelector<SVGGElement>(`[data-task-id="${CSS.escape(id)}"]`)?.focus({ preventScroll: true });
  });

  function moveFocus(task: GanttTask | undefined) {
    if (!task) return;
    reveal(task);
    focusAfterRender.current = task.id;
    setFocusedId(task.id);
  }

  function onKeyDown(event: KeyboardEvent<SVGSVGElement>) {
    setKeyboardFocus(true);
    const current = focusedId ? model.byId.get(focusedId) : undefined;
    if (!current) return;
    const row = model.rows[current.row];
    const at = row.indexOf(current);
    let next: GanttTask | undefined;
    switch (event.key) {
      case 'ArrowRight':
        next = row[at + 1];
        break;
      case 'ArrowLeft':
        next = row[at - 1];
        break;
      case 'ArrowDown':
        for (let r = current.row + 1; r < model.rows.length && !next; r++) next = nearestInRow(model.rows[r], current.start);
        break;
      case 'ArrowUp':
        for (let r = current.row - 1; r >= 0 && !next; r--) next = nearestInRow(model.rows[r], current.start);
        break;
      case 'Home':
        next = row[0];
        break;
      case 'End':
        next = row[row.length - 1];
        break;
      case 'Enter':
      case ' ':
        event.preventDefault();
        onSelect(current.id);
        return;
      default:
        return;
    }
    event.preventDefault();
    moveFocus(next);
  }

  // A tooltip follows the mouse, and the keyboard's focus; a click's focus shows none.
  const tipId = hoverId ?? (keyboardFocus ? focusedId : null);
  const onPointer = useCallback(() => setKeyboardFocus(false), []);
  return { focusedId, tabStop, tipId, hoverId, setHoverId, onFocusBar, onKeyDown, onPointer };
}
