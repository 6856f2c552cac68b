'use client';

import { useEffect, useRef } from 'react';
import { guardMessage } from '@/lib/editor-store/approval-guard';
import { useEditor } from './editor-context';

/**
 * Asked before the first save that changes the content of an approved or in-review plan:
 * that save makes a new revision no one has approved, and the plan goes back to draft.
 */
export function VoidApprovalDialog({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
  const approval = useEditor((s) => s.approval);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    // Focus starts on the harmless choice and goes back where it was when the dialog closes.
    opener.current = document.activeElement;
    cancelRef.current?.focus();
    return () => (opener.current as HTMLElement | null)?.focus?.();
  }, []);
  if (!approval) return null;
  const approved = approval.status === 'approved';
  const title = approved ? 'Save and void the approval?' : 'Save and withdraw it from review?';
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="void-approval-title"
      aria-describedby="void-approval-text"
      className="fixed inset-0 z-50 grid place-items-center bg-slate-900/40"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <div className="w-[28rem] rounded-lg bg-white p-5 shadow-xl">
        <h2 id="void-approval-title" className="text-base font-semibold">
          {title}
        </h2>
        <p id="void-approval-text" className="mt-2 text-sm text-slate-600">
          {guardMessage(approval)}. These changes alter the plan&apos;s content, so the new revision goes back to draft and needs{' '}
          {approved ? 'a new approval' : 'to be submitted again'}.
        </p>
        <div className="mt-4 flex justify-end gap-2">
          <button ref={cancelRef} type="button" className="rounded border border-slate-300 px-3 py-1.5 text-sm" onClick={onCancel}>
            Keep editing
          </button>
          <button type="button" className="rounded bg-rose-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-rose-800" onClick={onConfirm}>
            {approved ? 'Save and void approval' : 'Save and withdraw'}
          </button>
        </div>
      </div>
    </div>
  );
}
