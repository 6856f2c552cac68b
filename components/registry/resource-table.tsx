import type { ResourceKind } from '@/lib/registry/schema';
import { ResourceRow, type RowData } from './resource-row';

const HEAD = 'px-4 py-3 font-medium';

/** The resources of one kind, by key, with the kind's own columns. */
export function ResourceTable({
  kind,
  heading,
  singular,
  columns,
  rows,
  canEdit,
}: {
  kind: ResourceKind;
  heading: string;
  singular: string;
  columns: string[];
  rows: RowData[];
  canEdit: boolean;
}) {
  const columnCount = 2 + columns.length + (canEdit ? 1 : 0);
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{heading}, by key</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className={HEAD}>Key</th>
            <th scope="col" className={HEAD}>Description</th>
            {columns.map((column) => (
              <th key={column} scope="col" className={HEAD}>
                {column}
              </th>
            ))}
            {canEdit && (
              <th scope="col" className={HEAD}>
                Actions
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columnCount} className="px-4 py-6 text-center text-slate-500">
                No {singular}s in the registry yet.
              </td>
            </tr>
          ) : (
            rows.map((row) => <ResourceRow key={row.key} kind={kind} singular={singular} row={row} canEdit={canEdit} />)
          )}
        </tbody>
      </table>
    </div>
  );
}
