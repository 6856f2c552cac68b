// A link to a task (`?task=`) on the editor, the review page, a revision, the dry run and the
// run view: the task it names is opened selected, and one the revision on screen does not
// have is said rather than silently ignored.

/** The task a link names: `found` if the plan has it (to select), else `missing` (to say so); both null when it names none. */
export function linkedTask(tasks: readonly { task_id: string }[], taskId: string | null): { found: string | null; missing: string | null } {
  if (taskId === null || taskId === '') return { found: null, missing: null };
  return tasks.some((t) => t.task_id === taskId) ? { found: taskId, missing: null } : { found: null, missing: taskId };
}

/** What a page says when its link names a task the revision on screen does not have. */
export function missingTaskMessage(taskId: string, revision: number): string {
  return `The link names task "${taskId}", which revision ${revision} of this plan does not have: it may have been renamed or removed since the link was made.`;
}
