import 'server-only';
import { expect } from 'vitest';
import type { TaskDataInput } from '@/lib/plan';
import type { Principal } from '../auth/principal';
import { AppError } from './errors';

/** The AppError a service call is refused with; fails the test when it succeeds or throws anything else. */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** A person (or, with `service`, a service account) as the services see the caller. */
export function principal(username: string, role: Principal['role'], service = false): Principal {
  return { id: username, username, role, via: 'session', service };
}

/** Two tasks, fetch then summarise: the smallest plan with a dependency. */
export const FETCH_THEN_SUMMARISE: TaskDataInput = {
  task_id: 'job-1',
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'http_get' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};
