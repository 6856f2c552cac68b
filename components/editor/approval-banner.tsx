'use client';

import { guardMessage } from '@/lib/editor-store/approval-guard';
import { useEditor } from './editor-context';

/** Says, before any edit, what saving a content change would take away from this plan. */
export function ApprovalBanner() {
  const approval = useEditor((s) => s.approval);
  if (!approval) return null;
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-900">
      {guardMessage(approval)}. Moving tasks or collapsing groups keeps it.
    </div>
  );
}
