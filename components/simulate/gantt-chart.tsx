'use client';

import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { SMALL_BUTTON } from '@/components/form/styles';
import { formatMs } from './format';
import { barName, firstEndingAfter, nearestInRow, type GanttModel, type GanttTask } from './gantt-model';
import { tickLabel, tickStep, ticksBetween } from './time-ticks';

// The dry run's timeline: one row per worker (and one for the skipped tasks), a bar per
// task with its name on it where it fits, time ticks, zoom (buttons, Ctrl+wheel) and pan
// (scrolling, or dragging the background). Only the bars in and near the view are drawn,
// so thousands of tasks stay responsive. The bars are one tab stop; arrow keys move
// between them (roving focus), Enter or a click selects the task.

const ROW = 28;
const AXIS = 26;
const LABEL_W = 84;
/** Bars drawn at once; beyond this the chart asks to zoom in. */
const MAX_DRAWN = 3000;
/** Bars narrower than this (px) are drawn as one band per run of them, until zoomed in. */
const MIN_BAR = 3;
const MAX_ZOOM = 4096;
/** The widest the drawn timeline gets, in px: browsers stop laying out far beyond this. */
const MAX_WIDTH = 4_000_000;
const MAX_VISIBLE_HEIGHT = 420;
const SKIPPED_W = 10;
const CHAR_W = 6.2;

/** A run of bars too narrow to draw one by one. */
interface Band {
  row: number;
  x0: number;
  x1: number;
  count: number;
  failed: boolean;
}

interface View {
  left: number;
  top: number;
  width: number;
  height: number;
}

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

function truncate(text: string, px: number): string | null {
  const chars = Math.floor((px - 8) / CHAR_W);
  if (chars < 3) return null;
  return text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
}

export function GanttChart({ model, selectedId, onSelect }: GanttChartProps) {
  const ids = useId().replace(/:/g, '');
  const hatch = `gantt-hatch-${ids}`;
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<View>({ left: 0, top: 0, width: 0, height: MAX_VISIBLE_HEIGHT });
  const [zoom, setZoom] = useState(1);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [hoverId, setHoverId] = useState<string | null>(null);
  const [keyboardFocus, setKeyboardFocus] = useState(false);
  const focusAfterRender = useRef<string | null>(null);
  const onFocusBar = useCallback((id: string, visible: boolean) => {
    setFocusedId(id);
    setKeyboardFocus(visible);
  }, []);
  const anchor = useRef<{ time: number; x: number } | null>(null);

  const baseWidth = Math.max(200, view.width - LABEL_W);
  const width = Math.min(MAX_WIDTH, baseWidth * zoom);
  const pxPerMs = width / model.spanMs;
  const height = model.rows.length * ROW;
  const x = useCallback((ms: number) => ms * pxPerMs, [pxPerMs]);

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

  // The selection made elsewhere (the canvas, the table) is brought into view.
  useEffect(() => {
    const task = selectedId ? model.byId.get(selectedId) : undefined;
    if (task) reveal(task);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the selection changes
  }, [selectedId, model]);

  function reveal(task: GanttTask) {
    const el = scroller.current;
    if (!el) return;
    const chartWidth = el.clientWidth - LABEL_W;
    const left = task.start * pxPerMs;
    const right = Math.max(left + SKIPPED_W, task.end * pxPerMs);
    if (left < el.scrollLeft || right > el.scrollLeft + chartWidth) el.scrollLeft = Math.max(0, left - chartWidth / 4);
    const top = task.row * ROW;
    const visible = el.clientHeight - AXIS;
    if (top < el.scrollTop || top + ROW > el.scrollTop + visible) el.scrollTop = Math.max(0, top - visible / 2);
  }

  // The roving tab stop: the focused bar, else the selected one, else the first to start.
  const tabStop = useMemo(() => {
    if (focusedId && model.byId.has(focusedId)) return focusedId;
    if (selectedId && model.byId.has(selectedId)) return selectedId;
    let first: GanttTask | undefined;
    for (const row of model.rows) if (row[0] && (!first || row[0].start < first.start)) first = row[0];
    return first?.id ?? null;
  }, [focusedId, selectedId, model]);

  // Bars in and around the view (half a screen either side), at most MAX_DRAWN; runs of
  // bars too narrow to see or click are drawn as one band each.
  const { drawn, bands, capped } = useMemo(() => {
    const margin = view.width / 2;
    const from = Math.max(0, (view.left - margin) / pxPerMs);
    const to = (view.left + view.width + margin) / pxPerMs;
    const firstRow = Math.max(0, Math.floor((view.top - view.height / 2) / ROW));
    const lastRow = Math.min(model.rows.length - 1, Math.ceil((view.top + view.height * 1.5) / ROW));
    const special = new Set([tabStop, selectedId, hoverId, focusedId].filter((id): id is string => !!id));
    const list: GanttTask[] = [];
    const runs: Band[] = [];
    let over = false;
    for (let r = firstRow; r <= lastRow; r++) {
      const row = model.rows[r];
      let band: Band | null = null;
      for (let i = firstEndingAfter(row, from - SKIPPED_W / pxPerMs); i < row.length && row[i].start <= to; i++) {
        const task = row[i];
        const px = (task.end - task.start) * pxPerMs;
        if (task.status !== 'skipped' && px < MIN_BAR && !special.has(task.id)) {
          const x0 = task.start * pxPerMs;
          const x1 = Math.max(task.end * pxPerMs, x0 + 1);
          if (band && x0 - band.x1 < 1) {
            band.x1 = Math.max(band.x1, x1);
            band.count += 1;
            band.failed ||= task.status === 'failed';
          } else {
            band = { row: r, x0, x1, count: 1, failed: task.status === 'failed' };
            runs.push(band);
          }
          continue;
        }
        band = null;
        if (list.length >= MAX_DRAWN) {
          over = true;
          continue;
        }
        list.push(task);
      }
    }
    for (const id of special) {
      const task = model.byId.get(id);
      if (task && !list.includes(task)) list.push(task);
    }
    return { drawn: list, bands: runs, capped: over };
  }, [view, pxPerMs, model, tabStop, selectedId, hoverId, focusedId]);

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

  // Dragging the background pans.
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  function onPointerDown(event: PointerEvent<SVGSVGElement>) {
    setKeyboardFocus(false);
    if ((event.target as Element).closest('[data-task-id]') || event.button !== 0) return;
    const el = scroller.current!;
    drag.current = { x: event.clientX, y: event.clientY, left: el.scrollLeft, top: el.scrollTop };
    event.currentTarget.setPointerCapture(event.pointerId);
  }
  function onPointerMove(event: PointerEvent<SVGSVGElement>) {
    if (!drag.current) return;
    const el = scroller.current!;
    el.scrollLeft = drag.current.left - (event.clientX - drag.current.x);
    el.scrollTop = drag.current.top - (event.clientY - drag.current.y);
  }

  const step = tickStep(pxPerMs);
  const ticks = ticksBetween((view.left - view.width) / pxPerMs, (view.left + 2 * view.width) / pxPerMs, step);
  // A tooltip follows the mouse, and the keyboard's focus; a click's focus shows none.
  const tip = hoverId ?? (keyboardFocus ? focusedId : null);
  const tipTask = tip ? model.byId.get(tip) : undefined;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
        <div role="group" aria-label="Timeline zoom" className="flex gap-1">
          <button type="button" className={SMALL_BUTTON} onClick={() => zoomBy(2)} disabled={zoom >= MAX_ZOOM || width >= MAX_WIDTH}>
            Zoom in
          </button>
          <button type="button" className={SMALL_BUTTON} onClick={() => zoomBy(0.5)} disabled={zoom <= 1}>
            Zoom out
          </button>
          <button type="button" className={SMALL_BUTTON} onClick={() => setZoom(1)} disabled={zoom <= 1}>
            Fit
          </button>
        </div>
        <span aria-live="polite">{zoom > 1 ? `${Math.round(zoom * 10) / 10}× · drag or scroll sideways to pan` : 'Ctrl+wheel or the buttons zoom'}</span>
        {capped && <span className="text-amber-800">Drawing {MAX_DRAWN.toLocaleString('en')} bars here; zoom in to see every bar.</span>}
      </div>
      <div
        ref={scroller}
        className="relative overflow-auto rounded border border-slate-200"
        style={{ maxHeight: MAX_VISIBLE_HEIGHT, height: Math.min(MAX_VISIBLE_HEIGHT, height + AXIS + 18) }}
      >
        <div style={{ width: LABEL_W + width, height: AXIS + height }} className="relative">
          {/* The axis stays on top and the row names on the left while the chart scrolls. */}
          <div className="sticky top-0 z-20 flex bg-white" style={{ height: AXIS, width: LABEL_W + width }}>
            <div className="sticky left-0 z-30 shrink-0 border-b border-r border-slate-200 bg-white" style={{ width: LABEL_W }} />
            <svg width={width} height={AXIS} aria-hidden className="block border-b border-slate-200 text-[10px]">
              {ticks.map((t) => (
                <g key={t} transform={`translate(${x(t)},0)`}>
                  <line y1={AXIS - 6} y2={AXIS} className="stroke-slate-400" />
                  <text x={3} y={AXIS - 9} className="fill-slate-600">
                    {tickLabel(t, step)}
                  </text>
                </g>
              ))}
            </svg>
          </div>
          <div className="flex">
            <div className="sticky left-0 z-10 shrink-0 border-r border-slate-200 bg-white text-[11px] text-slate-600" style={{ width: LABEL_W }} aria-hidden>
              {model.rowNames.map((name) => (
                <div key={name} className="truncate px-2" style={{ height: ROW, lineHeight: `${ROW}px` }}>
                  {name}
                </div>
              ))}
            </div>
            <svg
              width={width}
              height={height}
              role="group"
              aria-label={timelineName(model)}
              className="block cursor-grab text-[11px]"
              onKeyDown={onKeyDown}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={() => (drag.current = null)}
              onPointerCancel={() => (drag.current = null)}
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
                <Bar
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
                  onFocus={onFocusBar}
                  onHover={setHoverId}
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

interface BarProps {
  task: GanttTask;
  x: number;
  width: number;
  name: string;
  hatch: string;
  selected: boolean;
  focused: boolean;
  tabStop: boolean;
  onSelect: (id: string) => void;
  /** `visible`: focus the keyboard moved (:focus-visible), not a click's. */
  onFocus: (id: string, visible: boolean) => void;
  onHover: (id: string | null) => void;
}

const Bar = memo(function Bar({ task, x, width, name, hatch, selected, focused, tabStop, onSelect, onFocus, onHover }: BarProps) {
  const y = task.row * ROW + 4;
  const h = ROW - 8;
  const skipped = task.status === 'skipped';
  const text = skipped ? null : truncate(task.label, width);
  const look = skipped
    ? { fill: '#ffffff', stroke: '#475569', strokeDasharray: '3 2', strokeWidth: 1.5 }
    : task.status === 'failed'
      ? { fill: `url(#${hatch})`, stroke: '#be123c', strokeWidth: 1.5 }
      : { fill: '#2563eb', stroke: task.critical ? '#78350f' : 'none', strokeWidth: task.critical ? 2.5 : 0 };
  return (
    <g
      role="button"
      aria-label={name}
      aria-pressed={selected}
      data-task-id={task.id}
      tabIndex={tabStop ? 0 : -1}
      className="cursor-pointer outline-none"
      onClick={() => onSelect(task.id)}
      onFocus={(event) => onFocus(task.id, event.currentTarget.matches(':focus-visible'))}
      onMouseEnter={() => onHover(task.id)}
      onMouseLeave={() => onHover(null)}
    >
      {(selected || focused) && (
        <rect x={x - 3} y={y - 3} width={width + 6} height={h + 6} rx={4} fill="none" stroke={focused ? '#4f46e5' : '#0f172a'} strokeWidth={2} strokeDasharray={focused && !selected ? '4 2' : undefined} />
      )}
      <rect x={x} y={y} width={width} height={h} rx={2} {...look} />
      {task.critical && task.status !== 'ran' && <rect x={x} y={y - 2} width={width} height={2} fill="#78350f" />}
      {task.finding && <circle cx={x + width - 4} cy={y + 4} r={3.5} fill="#f59e0b" stroke="#78350f" strokeWidth={1} />}
      {text && (
        <text x={x + 4} y={y + h / 2 + 4} className={task.status === 'failed' ? 'fill-rose-950 font-medium' : 'fill-white'} pointerEvents="none">
          {text}
        </text>
      )}
    </g>
  );
});

/** Failed bars are hatched, so failure reads without colour. */
function HatchPattern({ id }: { id: string }) {
  return (
    <defs>
      <pattern id={id} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="6" height="6" fill="#ffe4e6" />
        <line x1="0" y1="0" x2="0" y2="6" stroke="#e11d48" strokeWidth="3" />
      </pattern>
    </defs>
  );
}

function Swatch({ children }: { children: React.ReactNode }) {
  return (
    <svg width={26} height={14} aria-hidden className="shrink-0">
      {children}
    </svg>
  );
}

function GanttLegend() {
  const id = `legend-hatch-${useId().replace(/:/g, '')}`;
  return (
    <ul aria-label="Timeline legend" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
      <li className="flex items-center gap-1">
        <Swatch>
          <rect x={1} y={2} width={24} height={10} rx={2} fill="#2563eb" />
        </Swatch>
        would run (solid)
      </li>
      <li className="flex items-center gap-1">
        <Swatch>
          <HatchPattern id={id} />
          <rect x={1} y={2} width={24} height={10} rx={2} fill={`url(#${id})`} stroke="#be123c" strokeWidth={1.5} />
        </Swatch>
        fails (hatched)
      </li>
      <li className="flex items-center gap-1">
        <Swatch>
          <rect x={8} y={2} width={10} height={10} rx={2} fill="#fff" stroke="#475569" strokeDasharray="3 2" strokeWidth={1.5} />
        </Swatch>
        skipped (dashed, at the time it is skipped)
      </li>
      <li className="flex items-center gap-1">
        <Swatch>
          <rect x={1} y={2} width={24} height={10} rx={2} fill="#2563eb" stroke="#78350f" strokeWidth={2.5} />
        </Swatch>
        critical path (dark outline)
      </li>
      <li className="flex items-center gap-1">
        <Swatch>
          <circle cx={13} cy={7} r={4} fill="#f59e0b" stroke="#78350f" />
        </Swatch>
        has a finding (dot)
      </li>
    </ul>
  );
}
