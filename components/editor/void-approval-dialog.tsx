'use client';

import { useRef } from 'react';
import { ModalDialog } from '@/components/form/modal-dialog';
import { guardMessage } from '@/lib/editor-store/approval-guard';
import { useEditor } from './editor-context';

/**
 * Asked before the first save that changes the content of an approved or in-review plan:
 * that save makes a new revision no one has approved, and the plan goes back to draft.
 */
export function VoidApprovalDialog({ onConfirm, onCancel }: { onConfirm: () => void; onCancel: () => void }) {
  const approval = useEditor((s) => s.approval);
  // Focus starts on the harmless choice.
  const cancelRef = useRef<HTMLButtonElement>(null);
  if (!approval) return null;
  const approved = approval.status === 'approved';
  const title = approved ? 'Save and void the approval?' : 'Save and withdraw it from review?';
  return (
    <ModalDialog role="alertdialog" labelledBy="void-approval-title" describedBy="void-approval-text" initialFocus={cancelRef} onCancel={onCancel}>
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
    </ModalDialog>
  );
}
