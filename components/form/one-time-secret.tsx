'use client';

import { useId } from 'react';
import { INPUT } from './styles';

/**
 * A secret the server hands out once (an API token, a webhook's signing key): selected
 * on focus for copying, with what it is for. Nothing shows it again after a reload.
 */
export function OneTimeSecret({ label, value, children }: { label: string; value: string; children: React.ReactNode }) {
  const noteId = useId();
  return (
    <div role="status" className="space-y-2 rounded-md border border-amber-200 bg-amber-50 p-3">
      <label className="block text-sm font-medium text-slate-800">
        {label}
        <input readOnly value={value} aria-describedby={noteId} onFocus={(event) => event.currentTarget.select()} className={`${INPUT} bg-white font-mono`} />
      </label>
      <div id={noteId} className="space-y-1 text-xs text-amber-900">
        {children}
      </div>
    </div>
  );
}
