/** Test support: a DispatchRequest as the engine would build it, with only what a test cares about given. */
import { PlannerTask, type ExecutionType, type PlannerTaskInput } from '@/lib/plan';
import type { Resource } from '@/lib/registry';
import type { DispatchRequest } from './dispatch-types';

export interface TestRequestOptions {
  kind?: ExecutionType;
  task?: PlannerTaskInput;
  resource?: Resource | null;
  input?: unknown;
  signal?: AbortSignal;
  attempt?: number;
  generation?: number;
  runId?: string;
  resultUrl?: string;
}

export function testDispatchRequest(options: TestRequestOptions = {}): DispatchRequest {
  const task = PlannerTask.parse({ task_id: 'task-1', instructions: 'Do the thing.', ...options.task });
  const runId = options.runId ?? 'run-1';
  const attempt = options.attempt ?? 1;
  return {
    runId,
    taskId: task.task_id,
    generation: options.generation ?? 1,
    attempt,
    idempotencyKey: `${runId}:${task.task_id}:${attempt}`,
    kind: options.kind ?? 'tool',
    task,
    resource: options.resource ?? null,
    input: options.input ?? {},
    signal: options.signal ?? new AbortController().signal,
    resultUrl: options.resultUrl ?? `http://127.0.0.1:1/api/runs/${runId}/tasks/${task.task_id}/result`,
  };
}

/** An http://127.0.0.1 URL nothing listens on: a port that was free a moment ago. */
export async function unreachableUrl(path = '/'): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}
