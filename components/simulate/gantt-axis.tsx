import { AXIS, LABEL_W } from './gantt-geometry';
import { tickLabel } from './time-ticks';

/** The time axis: it stays on top, and its corner over the row names on the left, while the chart scrolls. */
export function GanttAxis({ ticks, step, width, x }: { ticks: readonly number[]; step: number; width: number; x: (ms: number) => number }) {
  return (
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
  );
}

/** The row names (workers, and the skipped tasks), kept on the left while the chart scrolls sideways. */
export function GanttRowNames({ names, rowHeight }: { names: readonly string[]; rowHeight: number }) {
  return (
    <div className="sticky left-0 z-10 shrink-0 border-r border-slate-200 bg-white text-[11px] text-slate-600" style={{ width: LABEL_W }} aria-hidden>
      {names.map((name) => (
        <div key={name} className="truncate px-2" style={{ height: rowHeight, lineHeight: `${rowHeight}px` }}>
          {name}
        </div>
      ))}
    </div>
  );
}
