'use client';

import { useOpenCommentCount } from './comment-counts';

/** A task's open comment threads, on its node; nothing when there are none. */
export function CommentCountBadge({ taskId }: { taskId: string }) {
  const count = useOpenCommentCount(taskId);
  if (count === 0) return null;
  const name = `${count} open comment${count === 1 ? '' : 's'}`;
  return (
    <span role="img" aria-label={name} title={name} className="flex items-center gap-0.5 rounded-full bg-amber-100 px-1.5 text-[10px] font-bold text-amber-900">
      <span aria-hidden>💬</span>
      {count}
    </span>
  );
}
