import { memo } from 'react';
import { splitDistinctLabel } from '@/lib/flow/task-label';
import { ROW, truncate } from './gantt-geometry';
import type { GanttTask } from './gantt-model';

export interface BarProps {
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

/**
 * One task's bar: solid when it would run, hatched when it fails, a dashed square when skipped,
 * outlined on the critical path, a dot for a finding; a button that selects the task.
 * Memoised: a chart of thousands of bars re-renders only the bars whose props changed.
 */
export const GanttBar = memo(function GanttBar({ task, x, width, name, hatch, selected, focused, tabStop, onSelect, onFocus, onHover }: BarProps) {
  const y = task.row * ROW + 4;
  const h = ROW - 8;
  const skipped = task.status === 'skipped';
  // A name another task shares leads with its id on the bar, where the end would be cut.
  const { name: own, tag } = splitDistinctLabel(task.label, task.id);
  const text = skipped ? null : truncate(tag ? `${tag.slice(1, -1)} · ${own}` : task.label, width);
  const look = skipped
    ? { fill: '#ffffff', stroke: '#475569', strokeDasharray: '3 2', strokeWidth: 1.5 }
    : task.status === 'failed'
      ? { fill: `url(#${hatch})`, stroke: '#be123c', strokeWidth: 1.5 }
      : { fill: '#2563eb', stroke: task.critical ? '#78350f' : 'none', strokeWidth: task.critical ? 2.5 : 0 };
  // The bar's text, shortened to fit, is drawn beside the button rather than in it: a
  // button's visible text must be part of its name, and "Fetch the res…" is not.
  return (
    <>
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
      </g>
      {text && (
        <text aria-hidden x={x + 4} y={y + h / 2 + 4} className={task.status === 'failed' ? 'fill-rose-950 font-medium' : 'fill-white'} pointerEvents="none">
          {text}
        </text>
      )}
    </>
  );
});
