'use client';

import { useCallback, useEffect, useId, useMemo } from 'react';
import { formatMs } from './format';
import { GanttAxis, GanttRowNames } from './gantt-axis';
import { GanttBar } from './gantt-bar';
import { AXIS, LABEL_W, MAX_VISIBLE_HEIGHT, MAX_WIDTH, MAX_ZOOM, ROW, SKIPPED_W } from './gantt-geometry';
import { HatchPattern } from './gantt-hatch';
import { GanttLegend } from './gantt-legend';
import { barName, type GanttModel } from './gantt-model';
import { windowBars } from './gantt-window';
import { GanttZoomBar } from './gantt-zoom-bar';
import { tickStep, ticksBetween } from './time-ticks';
import { useDragPan } from './use-drag-pan';
import { useGanttFocus } from './use-gantt-focus';
import { useGanttViewport } from './use-gantt-viewport';

// The dry run's timeline: one row per worker (and one for the skipped tasks), a bar per
// task with its name on it where it fits, time ticks, zoom (buttons, Ctrl+wheel) and pan
// (scrolling, or dragging the background). Only the bars in and near the view are drawn,
// so thousands of tasks stay responsive. The bars are one tab stop; arrow keys move
// between them (roving focus), Enter or a click selects the task.

export interface GanttChartProps {
  model: GanttModel;
  selectedId: string | null;
  onSelect: (taskId: string) => void;
}

function timelineName(model: GanttModel): string {
  const placed = model.tasks.filter((t) => t.worker !== null).length;
  const skipped = model.tasks.length - placed;
  const workers = model.rows.length - (skipped ? 1 : 0);
  return `Timeline: ${placed} tasks on ${workers} workers over ${formatMs(model.spanMs)}${skipped ? `, ${skipped} skipped` : ''}; arrow keys move between tasks, Enter selects`;
}

export function GanttChart({ model, selectedId, onSelect }: GanttChartProps) {
  const hatch = `gantt-hatch-${useId().replace(/:/g, '')}`;
  const viewport = useGanttViewport(model);
  const { scroller, view, zoom, width, pxPerMs, reveal } = viewport;
  const focus = useGanttFocus({ model, selectedId, onSelect, reveal, scroller });
  const pan = useDragPan(viewport);
  const height = model.rows.length * ROW;
  const x = useCallback((ms: number) => ms * pxPerMs, [pxPerMs]);

  // The selection made elsewhere (the canvas, the table) is brought into view.
  useEffect(() => {
    const task = selectedId ? model.byId.get(selectedId) : undefined;
    if (task) reveal(task);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the selection changes
  }, [selectedId, model]);

  const { tabStop, focusedId, hoverId } = focus;
  const { drawn, bands, capped } = useMemo(
    () => windowBars(model, view, pxPerMs, new Set([tabStop, selectedId, hoverId, focusedId].filter((id): id is string => !!id))),
    [view, pxPerMs, model, tabStop, selectedId, hoverId, focusedId],
  );

  const step = tickStep(pxPerMs);
  const ticks = ticksBetween((view.left - view.width) / pxPerMs, (view.left + 2 * view.width) / pxPerMs, step);
  const tipTask = focus.tipId ? model.byId.get(focus.tipId) : undefined;

  return (
    <div className="space-y-2">
      <GanttZoomBar zoom={zoom} canZoomIn={zoom < MAX_ZOOM && width < MAX_WIDTH} capped={capped} onZoom={viewport.zoomBy} onFit={viewport.fit} />
      <div
        ref={scroller}
        className="relative overflow-auto rounded border border-slate-200"
        style={{ maxHeight: MAX_VISIBLE_HEIGHT, height: Math.min(MAX_VISIBLE_HEIGHT, height + AXIS + 18) }}
      >
        <div style={{ width: LABEL_W + width, height: AXIS + height }} className="relative">
          <GanttAxis ticks={ticks} step={step} width={width} x={x} />
          <div className="flex">
            <GanttRowNames names={model.rowNames} rowHeight={ROW} />
            <svg
              width={width}
              height={height}
              role="group"
              aria-label={timelineName(model)}
              className="block cursor-grab text-[11px]"
              onKeyDown={focus.onKeyDown}
              onPointerDown={(event) => {
                focus.onPointer();
                pan.onPointerDown(event);
              }}
              onPointerMove={pan.onPointerMove}
              onPointerUp={pan.onPointerUp}
              onPointerCancel={pan.onPointerCancel}
            >
              <HatchPattern id={hatch} />
              {model.rowNames.map((name, r) => (
                <line key={name} x1={0} x2={width} y1={(r + 1) * ROW - 0.5} y2={(r + 1) * ROW - 0.5} className="stroke-slate-100" />
              ))}
              {ticks.map((t) => (
                <line key={t} x1={x(t)} x2={x(t)} y1={0} y2={height} className="stroke-slate-100" />
              ))}
              {bands.map((band) => (
                <rect
                  key={`${band.row}:${band.x0}`}
                  aria-hidden
                  x={band.x0}
                  y={band.row * ROW + 6}
                  width={Math.max(1, band.x1 - band.x0)}
                  height={ROW - 12}
                  fill={band.failed ? `url(#${hatch})` : '#93c5fd'}
                >
                  <title>{`${band.count} short tasks; zoom in to tell them apart`}</title>
                </rect>
              ))}
              {drawn.map((task) => (
                <GanttBar
                  key={task.id}
                  task={task}
                  x={task.status === 'skipped' ? Math.min(x(task.start), width - SKIPPED_W - 1) : x(task.start)}
                  width={task.status === 'skipped' ? SKIPPED_W : Math.max(2, x(task.end) - x(task.start))}
                  name={barName(task, model.spanMs)}
                  hatch={hatch}
                  selected={task.id === selectedId}
                  focused={task.id === focusedId}
                  tabStop={task.id === tabStop}
                  onSelect={onSelect}
                  onFocus={focus.onFocusBar}
                  onHover={focus.setHoverId}
                />
              ))}
            </svg>
          </div>
          {tipTask && (
            <div
              aria-hidden
              className="pointer-events-none absolute z-40 max-w-xs rounded bg-slate-900 px-2 py-1 text-xs text-white shadow"
              style={{ left: LABEL_W + Math.min(x(tipTask.start), width - 200), top: AXIS + (tipTask.row + 1) * ROW + 2 }}
            >
              {barName(tipTask, model.spanMs)}
            </div>
          )}
        </div>
      </div>
      <GanttLegend />
    </div>
  );
}
