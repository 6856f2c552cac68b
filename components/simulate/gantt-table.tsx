'use client';

import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { formatUsd } from './format';
import { STATUS_TEXT, timeText, type GanttModel, type GanttTask } from './gantt-model';

// The timeline as a table, for reading figures and for screen readers: one row per task,
// sortable by any column. Only the rows in view are rendered (a spacer stands for the rest),
// so a plan of thousands of tasks scrolls smoothly.

const ROW_H = 30;
const HEIGHT = 420;
const OVERSCAN = 10;

type Column = 'task' | 'start' | 'end' | 'worker' | 'status' | 'cost';
const COLUMNS: Array<{ key: Column; label: string; numeric?: boolean }> = [
  { key: 'task', label: 'Task' },
  { key: 'start', label: 'Start', numeric: true },
  { key: 'end', label: 'End', numeric: true },
  { key: 'worker', label: 'Worker', numeric: true },
  { key: 'status', label: 'Status' },
  { key: 'cost', label: 'Cost', numeric: true },
];

const STATUS_ORDER = { ran: 0, failed: 1, skipped: 2 } as const;

function compare(column: Column): (a: GanttTask, b: GanttTask) => number {
  switch (column) {
    case 'task':
      return (a, b) => a.label.localeCompare(b.label);
    case 'start':
      return (a, b) => a.start - b.start;
    case 'end':
      return (a, b) => a.end - b.end;
    case 'worker':
      return (a, b) => (a.worker ?? Infinity) - (b.worker ?? Infinity);
    case 'status':
      return (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status];
    case 'cost':
      return (a, b) => (a.cost ?? -1) - (b.cost ?? -1);
  }
}

export function GanttTable({ model, selectedId, onSelect }: { model: GanttModel; selectedId: string | null; onSelect: (taskId: string) => void }) {
  const [sort, setSort] = useState<{ column: Column; descending: boolean }>({ column: 'start', descending: false });
  const scroller = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const rows = useMemo(() => {
    const by = compare(sort.column);
    const sorted = [...model.tasks].sort((a, b) => by(a, b) || a.start - b.start || a.id.localeCompare(b.id));
    return sort.descending ? sorted.reverse() : sorted;
  }, [model, sort]);

  // A selection made elsewhere scrolls its row into view.
  useLayoutEffect(() => {
    const el = scroller.current;
    const at = selectedId ? rows.findIndex((t) => t.id === selectedId) : -1;
    if (!el || at < 0) return;
    const y = at * ROW_H;
    if (y < el.scrollTop || y > el.scrollTop + el.clientHeight - 2 * ROW_H) el.scrollTop = Math.max(0, y - el.clientHeight / 3);
  }, [selectedId, rows]);

  const first = Math.max(0, Math.floor(top / ROW_H) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((top + HEIGHT) / ROW_H) + OVERSCAN);
  const shown = rows.slice(first, last);

  return (
    <div
      ref={scroller}
      role="region"
      aria-label="Timeline table, scrolls"
      tabIndex={0}
      className="overflow-auto rounded border border-slate-200"
      style={{ maxHeight: HEIGHT }}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
    >
      <table className="w-full border-collapse text-left text-xs" aria-label="Tasks in the dry run" aria-rowcount={rows.length + 1}>
        <thead className="sticky top-0 z-10 bg-slate-50 text-slate-600">
          <tr>
            {COLUMNS.map((c) => {
              const active = sort.column === c.key;
              return (
                <th key={c.key} scope="col" aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'} className={`border-b border-slate-200 px-2 py-1 ${c.numeric ? 'text-right' : ''}`}>
                  <button type="button" className="font-semibold hover:underline" onClick={() => setSort({ column: c.key, descending: active ? !sort.descending : false })}>
                    {c.label}
                    <span aria-hidden> {active ? (sort.descending ? '▼' : '▲') : ''}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {first > 0 && (
            <tr aria-hidden style={{ height: first * ROW_H }}>
              <td colSpan={COLUMNS.length} />
            </tr>
          )}
          {shown.map((task, i) => {
            const selected = task.id === selectedId;
            return (
              <tr key={task.id} aria-rowindex={first + i + 2} style={{ height: ROW_H }} className={`border-b border-slate-100 ${selected ? 'bg-brand-50' : ''}`}>
                <td className="max-w-[18rem] truncate px-2">
                  <button type="button" aria-pressed={selected} className="max-w-full truncate text-left font-medium text-brand-700 hover:underline" title={task.label} onClick={() => onSelect(task.id)}>
                    {task.label}
                  </button>
                </td>
                <td className="px-2 text-right tabular-nums">{timeText(task.start, model.spanMs)}</td>
                <td className="px-2 text-right tabular-nums">{task.status === 'skipped' ? '—' : timeText(task.end, model.spanMs)}</td>
                <td className="px-2 text-right tabular-nums">{task.worker === null ? '—' : task.worker + 1}</td>
                <td className="px-2">
                  {STATUS_TEXT[task.status]}
                  {task.critical ? ', critical' : ''}
                  {task.finding ? ', finding' : ''}
                </td>
                <td className="px-2 text-right tabular-nums">{task.cost === null ? 'unknown' : formatUsd(task.cost)}</td>
              </tr>
            );
          })}
          {last < rows.length && (
            <tr aria-hidden style={{ height: (rows.length - last) * ROW_H }}>
              <td colSpan={COLUMNS.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
