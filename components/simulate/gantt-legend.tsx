import { useId, type ReactNode } from 'react';
import { HatchPattern } from './gantt-hatch';

function Swatch({ children }: { children: ReactNode }) {
  return (
    <svg width={26} height={14} aria-hidden className="shrink-0">
      {children}
    </svg>
  );
}

/** What the bars' looks mean: each in a shape or pattern too, not in colour alone. */
export function GanttLegend() {
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
