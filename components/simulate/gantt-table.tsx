'use client';

import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { DataTableHead, type DataColumn } from '@/components/ui/data-table-head';
import { TableFrame } from '@/components/ui/table-frame';
import type { SortValue } from '@/components/ui/table-sort';
import { useTableSort } from '@/components/ui/use-table-sort';
import { formatUsd } from './format';
import { STATUS_TEXT, timeText, type GanttModel, type GanttTask } from './gantt-model';

// The timeline as a table, for reading figures and for screen readers: one row per task,
// sortable by any column. Only the rows in view are rendered (a spacer stands for the rest),
// so a plan of thousands of tasks scrolls smoothly: the shared table's head and frame, with
// a windowed body of its own.

const ROW_H = 30;
const HEIGHT = 420;
const OVERSCAN = 10;

const COLUMNS: DataColumn[] = [
  { id: 'task', header: 'Task', sortable: true },
  { id: 'start', header: 'Start', sortable: true, numeric: true },
  { id: 'end', header: 'End', sortable: true, numeric: true },
  { id: 'worker', header: 'Worker', sortable: true, numeric: true },
  { id: 'status', header: 'Status', sortable: true },
  { id: 'cost', header: 'Cost', sortable: true, numeric: true },
];

const STATUS_ORDER = { ran: 0, failed: 1, skipped: 2 } as const;

function valueOf(task: GanttTask, column: string): SortValue {
  switch (column) {
    case 'task':
      return task.label;
    case 'start':
      return task.start;
    case 'end':
      return task.end;
    case 'worker':
      return task.worker;
    case 'status':
      return STATUS_ORDER[task.status];
    case 'cost':
      return task.cost;
    default:
      return null;
  }
}

export function GanttTable({ model, selectedId, onSelect }: { model: GanttModel; selectedId: string | null; onSelect: (taskId: string) => void }) {
  // Ties keep this order, the order the tasks start in.
  const byStart = useMemo(() => [...model.tasks].sort((a, b) => a.start - b.start || a.id.localeCompare(b.id)), [model]);
  const sort = useTableSort(byStart, valueOf, { column: 'start', descending: false });
  const rows = sort.rows;
  const scroller = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);

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
    <TableFrame ref={scroller} variant="dense" scroll={{ maxHeight: HEIGHT, label: 'Timeline table, scrolls' }} onScroll={(e) => setTop(e.currentTarget.scrollTop)}>
      <table className="w-full border-collapse text-left text-xs" aria-label="Tasks in the dry run" aria-rowcount={rows.length + 1}>
        <DataTableHead columns={COLUMNS} variant="dense" sort={sort} />
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
    </TableFrame>
  );
}
