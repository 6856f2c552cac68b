'use client';

import { useId, useState } from 'react';
import { createCommentAction } from '@/app/plans/[id]/comment-actions';
import { ActionError } from '@/components/form/action-error';
import { SMALL_PRIMARY_BUTTON } from '@/components/form/styles';
import { COMMENT_LIMITS } from '@/lib/api/comment-schemas';
import { useServerAction } from '@/components/query/use-server-action';
import { commentsKey } from './use-comments';

const FIELD =
  'block w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500';

export interface CommentFormProps {
  planId: string;
  revision: number;
  /** A new thread on this task (null: on the plan), unless `threadId` makes it a reply. */
  taskId?: string | null;
  threadId?: string;
  /** The visible label; `context` is added for screen readers so each form's name is unique. */
  label: string;
  context?: string;
  submitLabel: string;
  /** Placed before the text box: the review page's choice of task. */
  children?: React.ReactNode;
  /** False while `children` hold a choice that cannot be sent (a task that does not exist). */
  ready?: boolean;
}

/** Writes a comment: a new thread, or a reply. The text stays when the server refuses it. */
export function CommentForm({ planId, revision, taskId = null, threadId, label, context, submitLabel, children, ready = true }: CommentFormProps) {
  const id = useId();
  const [body, setBody] = useState('');
  const create = useServerAction(createCommentAction, { invalidate: [commentsKey(planId)], refresh: 'never', onSuccess: () => setBody('') });
  const tooLong = body.length > COMMENT_LIMITS.maxBodyChars;
  // Ctrl/Cmd+Enter submits the form without the button, so its disabled state guards nothing here.
  const sendable = ready && !create.pending && body.trim() !== '' && !tooLong;
  return (
    <form
      className="space-y-1"
      onSubmit={(event) => {
        event.preventDefault();
        if (!sendable) return;
        void create.run({ id: planId, request: threadId ? { thread_id: threadId, body, revision } : { task_id: taskId, body, revision } });
      }}
    >
      {children}
      <label htmlFor={id} className="block text-xs font-medium text-slate-700">
        {label}
        {context && <span className="sr-only"> {context}</span>}
      </label>
      <textarea
        id={id}
        rows={2}
        className={FIELD}
        value={body}
        aria-invalid={tooLong}
        aria-describedby={tooLong ? `${id}-count` : undefined}
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={(event) => {
          // Ctrl/Cmd+Enter sends, as in most review tools; Enter alone is a new line.
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) event.currentTarget.form?.requestSubmit();
        }}
      />
      {tooLong && (
        <p id={`${id}-count`} className="text-xs text-rose-700">
          {body.length.toLocaleString('en')} of at most {COMMENT_LIMITS.maxBodyChars.toLocaleString('en')} characters
        </p>
      )}
      <div className="flex items-center gap-2">
        <button type="submit" disabled={!sendable} className={SMALL_PRIMARY_BUTTON}>
          {create.pending ? 'Sending…' : submitLabel}
        </button>
        <ActionError message={create.error} />
      </div>
    </form>
  );
}
