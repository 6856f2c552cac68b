'use client';

import { useEffect, useId, useState } from 'react';
import { setThreadResolvedAction } from '@/app/plans/[id]/comment-actions';
import { ActionError } from '@/components/form/action-error';
import { SMALL_BUTTON } from '@/components/form/styles';
import { RelativeTime } from '@/components/plan/relative-time';
import { useServerAction } from '@/components/query/use-server-action';
import type { Thread } from '@/lib/api/comment-schemas';
import { CommentForm } from './comment-form';
import { commentsKey } from './use-comments';

type Heading = 'h3' | 'h4';

/** The time now, moved on every 30 s: a comment that arrives later still reads "just now", never "in a minute". */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function ResolveButton({ planId, thread }: { planId: string; thread: Thread }) {
  const resolved = thread.resolved_at !== null;
  const toggle = useServerAction(setThreadResolvedAction, { invalidate: [commentsKey(planId)], refresh: 'never' });
  return (
    <span className="flex items-center gap-2">
      <button type="button" className={SMALL_BUTTON} disabled={toggle.pending} onClick={() => void toggle.run({ id: planId, comment_id: thread.id, resolved: !resolved })}>
        {resolved ? 'Reopen thread' : 'Resolve thread'}
      </button>
      <ActionError message={toggle.error} />
    </span>
  );
}

/** One thread: a heading, its comments in order, and (for those who may) reply and resolve. */
export function ThreadView({ planId, revision, thread, canComment, heading: H = 'h3' }: { planId: string; revision: number; thread: Thread; canComment: boolean; heading?: Heading }) {
  const headingId = useId();
  const now = useNow();
  const resolved = thread.resolved_at !== null;
  return (
    <article aria-labelledby={headingId} className={`space-y-2 rounded border p-2 ${resolved ? 'border-slate-200 bg-slate-50' : 'border-amber-300 bg-white'}`}>
      <H id={headingId} className="text-xs font-semibold text-slate-800">
        Thread by {thread.author} on r{thread.revision}, {resolved ? `resolved by ${thread.resolved_by}` : 'open'}
      </H>
      <ol aria-label={`Comments in ${thread.author}'s thread`} className="space-y-2">
        {thread.comments.map((comment) => (
          <li key={comment.id} className="text-sm">
            <p className="text-xs text-slate-600">
              <span className="font-semibold text-slate-800">{comment.author}</span> · <RelativeTime iso={comment.created_at} now={now} />
              {comment.revision !== thread.revision && ` · on r${comment.revision}`}
            </p>
            <p className="whitespace-pre-wrap break-words text-slate-900">{comment.body}</p>
          </li>
        ))}
      </ol>
      {canComment && (
        <>
          <CommentForm planId={planId} revision={revision} threadId={thread.id} label="Reply" context={`to ${thread.author}'s thread`} submitLabel="Reply" />
          <ResolveButton planId={planId} thread={thread} />
        </>
      )}
    </article>
  );
}

/** Threads as a list, each item one thread; nothing when there are none. */
export function ThreadList({ label, threads, ...rest }: { label: string; threads: Thread[]; planId: string; revision: number; canComment: boolean; heading?: Heading }) {
  if (!threads.length) return null;
  return (
    <ul aria-label={label} className="space-y-2">
      {threads.map((thread) => (
        <li key={thread.id}>
          <ThreadView thread={thread} {...rest} />
        </li>
      ))}
    </ul>
  );
}
