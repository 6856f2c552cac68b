'use client';

import { useState } from 'react';
import { resultOf } from '@/lib/api/action-result';
import { FORMAT_IDS, FORMAT_LABELS, type FormatId } from '@/lib/formats/format';
import { useEditor, useEditorStore } from './editor-context';

function dispositionName(header: string | null, fallback: string): string {
  return /filename="([^"]+)"/.exec(header ?? '')?.[1] ?? fallback;
}

/**
 * Downloads of the saved revision in each format. What a format cannot carry is said in
 * a notice, so exporting never loses fields silently. Unsaved edits are not exported.
 */
export function ExportMenu() {
  const store = useEditorStore();
  const planId = useEditor((s) => s.planId);
  const revision = useEditor((s) => s.baseRevision);
  const dirty = useEditor((s) => s.doc !== s.savedDoc);
  const [open, setOpen] = useState(false);

  async function exportAs(event: React.MouseEvent<HTMLAnchorElement>, format: FormatId) {
    event.preventDefault();
    setOpen(false);
    const href = event.currentTarget.href;
    const response = await fetch(href);
    if (!response.ok) {
      const failed = await resultOf<never>(response, 'The server refused it');
      store.getState().setNotice({ kind: 'error', message: `Export failed: ${failed.ok ? response.statusText : failed.error.message}`, taskIds: [] });
      return;
    }
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = dispositionName(response.headers.get('content-disposition'), `plan.${format}`);
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    const dropped = JSON.parse(decodeURIComponent(response.headers.get('x-plangate-dropped') ?? '%5B%5D')) as string[];
    if (dropped.length) {
      const shown = dropped.slice(0, 3).join('; ');
      store.getState().setNotice({
        kind: 'info',
        message: `Exported as ${FORMAT_LABELS[format]}. It cannot carry: ${shown}${dropped.length > 3 ? ` (and ${dropped.length - 3} more)` : ''}`,
        taskIds: [],
      });
    }
  }

  return (
    <div className="relative" onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="export-formats"
        onClick={() => setOpen(!open)}
        className="rounded border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 shadow-sm hover:bg-slate-50"
      >
        Export
      </button>
      {open && (
        <div id="export-formats" className="absolute left-0 z-20 mt-1 w-72 rounded-md border border-slate-200 bg-white p-1 shadow-lg">
          {dirty && <p className="px-2 py-1 text-[11px] text-amber-700">Exports revision {revision}; save to include your changes.</p>}
          <ul aria-label="Export formats">
            {FORMAT_IDS.map((id) => (
              <li key={id}>
                <a
                  className="block rounded px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
                  href={`/api/plans/${planId}/export?format=${id}&revision=${revision}`}
                  onClick={(event) => void exportAs(event, id)}
                >
                  Export as {FORMAT_LABELS[id]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
