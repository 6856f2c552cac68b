'use client';

import { useQuery } from '@tanstack/react-query';
import { dataOrThrow, resultOf } from '@/lib/api/action-result';
import { CommentListResponse, type Thread } from '@/lib/api/comment-schemas';

/** Every comment query of a plan starts with this key, so one invalidation refreshes them all. */
export const commentsKey = (planId: string) => ['comments', planId] as const;

async function fetchComments(planId: string, revision: number): Promise<CommentListResponse> {
  const response = await fetch(`/api/plans/${encodeURIComponent(planId)}/comments?revision=${revision}`, { headers: { Accept: 'application/json' } });
  return CommentListResponse.parse(dataOrThrow(await resultOf<unknown>(response, 'Comments could not be loaded')));
}

/** The threads shown on `revision`, shared by every component on the page that reads them. */
export function useComments<T = CommentListResponse>(planId: string, revision: number, select?: (data: CommentListResponse) => T) {
  return useQuery({
    queryKey: [...commentsKey(planId), revision],
    queryFn: () => fetchComments(planId, revision),
    enabled: planId !== '',
    // A review is a conversation: pick up the other side's comments without a reload.
    refetchInterval: 15_000,
    select,
  });
}

/** Open threads per task: derived once per fetch, read by every node. */
export function openCountsByTask(data: CommentListResponse): Map<string, number> {
  const counts = new Map<string, number>();
  for (const thread of data.threads) {
    if (thread.task_id !== null && thread.resolved_at === null) counts.set(thread.task_id, (counts.get(thread.task_id) ?? 0) + 1);
  }
  return counts;
}

export const isOpen = (thread: Thread) => thread.resolved_at === null;
