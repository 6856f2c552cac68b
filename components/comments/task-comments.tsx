'use client';

import { useId } from 'react';
import type { Thread } from '@/lib/api/comment-schemas';
import { CommentForm } from './comment-form';
import { useCommentsContext } from './comments-context';
import { ThreadList } from './thread-view';
import { isOpen, useComments } from './use-comments';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-2 border-t border-slate-200 pt-3">
      <h3 id={id} className="text-xs font-semibold text-slate-700">
        {title}
      </h3>
      {children}
    </section>
  );
}

const openCount = (threads: Thread[]) => threads.filter(isOpen).length;
const titled = (base: string, threads: Thread[]) => (openCount(threads) ? `${base} (${openCount(threads)} open)` : base);

/**
 * The inspector's threads on one task. `commentable` is false for a task not saved yet:
 * a comment is anchored to a saved revision that holds its task.
 */
export function TaskComments({ taskId, label, commentable }: { taskId: string; label: string; commentable: boolean }) {
  const comments = useCommentsContext();
  const query = useComments(comments?.planId ?? '', comments?.revision ?? 0);
  if (!comments) return null;
  const threads = query.data?.threads.filter((thread) => thread.task_id === taskId) ?? [];
  return (
    <Section title={titled('Comments', threads)}>
      {query.error && <p className="text-xs text-rose-700">{query.error.message}</p>}
      {query.data && threads.length === 0 && <p className="text-xs text-slate-600">No comments on this task.</p>}
      <ThreadList label={`Comments on ${label}`} threads={threads} planId={comments.planId} revision={comments.revision} canComment={comments.canComment} heading="h4" />
      {comments.canComment &&
        (commentable ? (
          <CommentForm planId={comments.planId} revision={comments.revision} taskId={taskId} label="New thread" context={`on ${label}`} submitLabel="Comment" />
        ) : (
          <p className="text-xs text-slate-600">Save the plan to comment on this new task.</p>
        ))}
    </Section>
  );
}

/** With no task selected: the threads on the whole plan, and those whose task is gone. */
export function PlanComments({ taskIds }: { taskIds: Pick<ReadonlySet<string>, 'has'> }) {
  const comments = useCommentsContext();
  const query = useComments(comments?.planId ?? '', comments?.revision ?? 0);
  if (!comments) return null;
  const threads = query.data?.threads ?? [];
  const onPlan = threads.filter((thread) => thread.task_id === null);
  const removed = threads.filter((thread) => thread.task_id !== null && !taskIds.has(thread.task_id));
  const shared = { planId: comments.planId, revision: comments.revision, canComment: comments.canComment, heading: 'h4' as const };
  return (
    <>
      <Section title={titled('Comments on the plan', onPlan)}>
        {query.error && <p className="text-xs text-rose-700">{query.error.message}</p>}
        <ThreadList label="Comments on the plan" threads={onPlan} {...shared} />
        {comments.canComment && <CommentForm planId={comments.planId} revision={comments.revision} taskId={null} label="New thread" context="on the plan" submitLabel="Comment" />}
      </Section>
      {removed.length > 0 && (
        <Section title={titled('On removed tasks', removed)}>
          <ul aria-label="Threads on removed tasks" className="space-y-2">
            {removed.map((thread) => (
              <li key={thread.id} className="space-y-1">
                <p className="font-mono text-[11px] text-slate-600">on a removed task: {thread.task_id}</p>
                <ThreadList label={`Comments on removed task ${thread.task_id}`} threads={[thread]} {...shared} />
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}
