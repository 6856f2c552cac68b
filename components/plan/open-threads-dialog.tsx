'use client';

import { useRef } from 'react';
import { ModalDialog } from '@/components/form/modal-dialog';

/** An unresolved comment thread, as the approver is reminded of it: where, who, and its first words. */
export interface OpenThread {
  id: string;
  where: string;
  author: string;
  excerpt: string;
}

/**
 * Asked before an approval while comment threads are still open: an approval over an
 * unanswered question should be a choice, not an oversight.
 */
export function OpenThreadsDialog({ threads, revision, onConfirm, onCancel }: { threads: OpenThread[]; revision: number; onConfirm: () => void; onCancel: () => void }) {
  // Focus starts on the harmless choice.
  const cancelRef = useRef<HTMLButtonElement>(null);
  const count = `${threads.length} open comment thread${threads.length === 1 ? '' : 's'}`;
  return (
    <ModalDialog role="alertdialog" labelledBy="open-threads-title" describedBy="open-threads-text" initialFocus={cancelRef} onCancel={onCancel}>
      <div className="w-[32rem] max-w-[calc(100vw-2rem)] rounded-lg bg-white p-5 shadow-xl">
        <h2 id="open-threads-title" className="text-base font-semibold">
          Approve with {count}?
        </h2>
        <p id="open-threads-text" className="mt-2 text-sm text-slate-600">
          Nobody has resolved {threads.length === 1 ? 'this thread' : 'these threads'} yet. Approving revision {revision} does not close {threads.length === 1 ? 'it' : 'them'}.
        </p>
        <ul aria-label="Open threads" className="mt-3 max-h-64 space-y-2 overflow-y-auto text-sm">
          {threads.map((thread) => (
            <li key={thread.id} className="rounded border border-slate-200 px-3 py-2">
              <span className="font-medium text-slate-900">{thread.where}</span>
              <span className="text-slate-600"> · {thread.author}</span>
              <p className="mt-0.5 break-words text-slate-700">{thread.excerpt}</p>
            </li>
          ))}
        </ul>
        <div className="mt-4 flex justify-end gap-2">
          <button ref={cancelRef} type="button" className="rounded border border-slate-300 px-3 py-1.5 text-sm" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="rounded bg-emerald-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-emerald-800" onClick={onConfirm}>
            Approve anyway
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}
