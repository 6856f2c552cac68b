'use client';

import { useQuery } from '@tanstack/react-query';
import { planRevisionQuery } from '@/components/editor/plan-revision-query';
import { taskLabel } from '@/lib/flow/task-label';
import type { PlanDocument } from '@/lib/plan';
import type { CommentTask } from './task-picker';

const NONE: CommentTask[] = [];

// Module level, so the query keeps its selected names between renders.
const namesOf = (doc: PlanDocument): CommentTask[] => doc.plan.planned_tasks.map((task) => ({ id: task.task_id, label: taskLabel(task) }));

/**
 * The tasks a comment can be about: the ones the page carries, or for a plan too big to carry
 * them, the tasks of the revision the page's canvas loads (the same query, so one request). Until
 * they are in, the list is empty and threads are named by their tasks' ids.
 */
export function useCommentTasks(planId: string, revision: number, carried: CommentTask[] | undefined): CommentTask[] {
  const { data } = useQuery({ ...planRevisionQuery(planId, revision), enabled: carried === undefined, select: namesOf });
  return carried ?? data ?? NONE;
}
