'use client';

import { useState } from 'react';
import { FORMAT_IDS, FORMAT_LABELS } from '@/lib/formats/format';
import { useEditor } from './editor-context';

/** Downloads of the saved revision in each format; unsaved edits are not in them. */
export function ExportMenu() {
  const planId = useEditor((s) => s.planId);
  const revision = useEditor((s) => s.baseRevision);
  const dirty = useEditor((s) => s.doc !== s.savedDoc);
  const [open, setOpen] = useState(false);
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
                  download
                  onClick={() => setOpen(false)}
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
