import { DataTable, type DataColumn } from '@/components/ui/data-table';
import type { ResourceKind } from '@/lib/registry/schema';
import { ResourceRow, type RowData } from './resource-row';

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
  const all: DataColumn[] = [
    { id: 'key', header: 'Key', sortable: true },
    { id: 'description', header: 'Description', sortable: true },
    ...columns.map((column) => ({ id: `column:${column}`, header: column })),
    ...(canEdit ? [{ id: 'actions', header: 'Actions' }] : []),
  ];
  return (
    <DataTable
      caption={`${heading}, by key`}
      columns={all}
      empty={`No ${singular}s in the registry yet.`}
      rows={rows.map((row) => ({
        key: row.key,
        sortValues: { key: row.key, description: row.description || null },
        // A row of its own: its Edit button opens the JSON editor in a row below it.
        element: <ResourceRow kind={kind} singular={singular} row={row} canEdit={canEdit} />,
      }))}
    />
  );
}
