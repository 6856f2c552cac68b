'use client';

import { useId, useState } from 'react';
import type { ResourceKind } from '@/lib/registry/schema';
import { DeleteResourceButton } from './delete-resource-button';
import { ResourceEditor } from './resource-editor';

export interface RowData {
  key: string;
  description: string;
  cells: string[];
  /** The resource as pretty JSON, the editor's starting text. */
  json: string;
}

const CELL = 'px-4 py-3 align-top';

function Cell({ value }: { value: string }) {
  return <td className={`${CELL} ${value === 'not set' || value === 'none' ? 'text-slate-500' : 'text-slate-700'}`}>{value}</td>;
}

/** One resource's row; editors get Edit and Delete, and the JSON editor opens in a row below. */
export function ResourceRow({ kind, singular, row, canEdit }: { kind: ResourceKind; singular: string; row: RowData; canEdit: boolean }) {
  const editorId = useId();
  const [editing, setEditing] = useState(false);
  const columnCount = 2 + row.cells.length + (canEdit ? 1 : 0);
  return (
    <>
      <tr>
        <th scope="row" className={`${CELL} font-mono text-xs font-medium text-slate-900`}>
          {row.key}
        </th>
        <td className={`${CELL} max-w-md text-slate-700`}>{row.description || <span className="text-slate-500">No description</span>}</td>
        {row.cells.map((value, index) => (
          <Cell key={index} value={value} />
        ))}
        {canEdit && (
          <td className={CELL}>
            <div className="flex flex-wrap items-center gap-2">
              <button
                type="button"
                aria-label={`Edit ${row.key}`}
                aria-expanded={editing}
                aria-controls={editing ? editorId : undefined}
                onClick={() => setEditing((open) => !open)}
                className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50"
              >
                Edit
              </button>
              <DeleteResourceButton kind={kind} singular={singular} resourceKey={row.key} />
            </div>
          </td>
        )}
      </tr>
      {canEdit && editing && (
        <tr id={editorId} className="bg-slate-50">
          <td colSpan={columnCount} className="px-4 py-3">
            <ResourceEditor kind={kind} resourceKey={row.key} initialJson={row.json} onDone={() => setEditing(false)} />
          </td>
        </tr>
      )}
    </>
  );
}
