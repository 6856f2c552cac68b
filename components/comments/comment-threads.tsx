'use client';

import { useId, useState } from 'react';
import type { Thread } from '@/lib/api/comment-schemas';
import { CommentForm } from './comment-form';
import { useCommentTasks } from './comment-tasks';
import { TaskPicker, useTaskFinder, type CommentTask } from './task-picker';
import { ThreadList } from './thread-view';
import { isOpen, useComments } from './use-comments';

interface Group {
  key: string;
  title: string;
  threads: Thread[];
}

/** Threads grouped as a reader scans them: the plan first, then tasks in plan order, then the rest. */
function groupsOf(threads: Thread[], tasks: CommentTask[]): Group[] {
  const byTask = new Map<string | null, Thread[]>();
  for (const thread of threads) byTask.set(thread.task_id, [...(byTask.get(thread.task_id) ?? []), thread]);
  const groups: Group[] = [];
  const plan = byTask.get(null);
  if (plan) groups.push({ key: '', title: 'On the plan', threads: plan });
  const known = new Set<string>();
  for (const task of tasks) {
    known.add(task.id);
    const list = byTask.get(task.id);
    if (list) groups.push({ key: task.id, title: `On ${task.label}`, threads: list });
  }
  // Not among the tasks: removed in this revision, or (a big plan's, while its tasks load) not named yet.
  for (const [taskId, list] of byTask) {
    if (taskId !== null && !known.has(taskId)) groups.push({ key: taskId, title: list[0].on_removed_task ? `On a removed task: ${taskId}` : `On ${taskId}`, threads: list });
  }
  return groups;
}

/** Every thread of the plan on this revision, and (for editors and approvers) a new one on any task. */
export function CommentThreads({
  planId,
  revision,
  tasks: carried,
  canComment,
}: {
  planId: string;
  revision: number;
  /** Ids and labels only: the page sends the whole document once, to the canvas. Left out for a big plan: read with the canvas's tasks. */
  tasks?: CommentTask[];
  canComment: boolean;
}) {
  const tasks = useCommentTasks(planId, revision, carried);
  const headingId = useId();
  const [about, setAbout] = useState('');
  const chosen = useTaskFinder(tasks)(about);
  const { data, error, isPending } = useComments(planId, revision);
  const threads = data?.threads ?? [];
  const open = threads.filter(isOpen).length;
  return (
    <section aria-labelledby={headingId} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={headingId} className="text-lg font-semibold">
        Comments
      </h2>
      <p className="text-sm text-slate-600" aria-live="polite">
        {isPending ? 'Loading comments…' : `${threads.length} thread${threads.length === 1 ? '' : 's'}, ${open} open`}
      </p>
      {error && <p className="text-sm text-rose-700">{error.message}</p>}
      {groupsOf(threads, tasks).map((group) => (
        <div key={group.key} className="space-y-2">
          <h3 className="text-sm font-semibold text-slate-800">{group.title}</h3>
          <ThreadList label={`Comments ${group.title.charAt(0).toLowerCase()}${group.title.slice(1)}`} threads={group.threads} planId={planId} revision={revision} canComment={canComment} heading="h4" />
        </div>
      ))}
      {canComment && (
        <CommentForm
          planId={planId}
          revision={revision}
          taskId={chosen?.id ?? null}
          ready={!about.trim() || !!chosen}
          // Not "Comment": the decision form on the same page owns that name.
          label="New thread"
          context={chosen ? `on ${chosen.label}` : 'on the plan'}
          submitLabel="Add comment"
        >
          <TaskPicker tasks={tasks} value={about} onChange={setAbout} chosen={chosen} />
        </CommentForm>
      )}
    </section>
  );
}
