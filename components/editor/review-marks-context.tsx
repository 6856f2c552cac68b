'use client';

import { createContext } from 'react';
import type { RemovedTask } from '@/lib/flow/review-marks';
import type { TaskMark } from '@/lib/plan';
import { MARK_STYLE } from '@/components/review/mark-style';

export { MARK_STYLE };

/** On the review canvas: how each task differs from the revision reviewed against, and the tasks removed since. */
export interface ReviewMarks {
  marks: ReadonlyMap<string, TaskMark>;
  removed: readonly RemovedTask[];
}

export const ReviewMarksContext = createContext<ReviewMarks | null>(null);

/** The mark's symbol and words, on a tag above the node's top edge so the node's own rows keep their room. */
export function ReviewMarkBadge({ mark }: { mark: TaskMark }) {
  const style = MARK_STYLE[mark.kind];
  const words = mark.kind === 'replaces' ? `replaces ${mark.replaces}` : style.label;
  const title = mark.kind === 'changed' ? `Changed: ${mark.fields.join(', ')}` : words;
  return (
    <span title={title} className={`absolute -top-2.5 left-2 max-w-[90%] truncate rounded px-1 text-[10px] font-semibold leading-4 shadow-sm ${style.badge}`}>
      <span aria-hidden>{style.symbol}</span> {words}
    </span>
  );
}
