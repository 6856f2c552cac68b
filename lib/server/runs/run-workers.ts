import 'server-only';
import type { DatabaseHandle } from '../db/client';
import { getJobQueue, stopJobQueue, TASK_QUEUE } from './job-queue';
import { closeRunFeed } from './run-events';
import type { TaskJobData } from './start-run';
import { runTaskJob, type RunnerOptions } from './task-runner';

// The workers that carry out runs: started with the server (instrumentation.ts) and, on
// PostgreSQL, also as separate processes (`npm run plangate -- worker`). Any number of them
// share the queue; pg-boss gives each job to one of them.

export interface WorkerOptions extends RunnerOptions {
  /** Tasks one process runs at once (calls mostly wait on the network). */
  concurrency?: number;
}

const started = new WeakMap<DatabaseHandle, Promise<string>>();

/**
 * Where executors that answered 202 post their results: PLANGATE_PUBLIC_URL (how executors
 * reach this server), else this server on localhost.
 */
export function resultUrlsFromEnv(env: NodeJS.ProcessEnv = process.env): RunnerOptions['resultUrl'] {
  const origin = (env.PLANGATE_PUBLIC_URL || `http://127.0.0.1:${env.PORT || 3000}`).replace(/\/+$/, '');
  return (runId, taskId) => `${origin}/api/runs/${encodeURIComponent(runId)}/tasks/${encodeURIComponent(taskId)}/result`;
}

/** Whether this process works the queue: on unless PLANGATE_WORKERS=off. */
export const workersEnabled = (env: NodeJS.ProcessEnv = process.env) => env.PLANGATE_WORKERS !== 'off';

export function startRunWorkers(handle: DatabaseHandle, options: WorkerOptions): Promise<string> {
  let worker = started.get(handle);
  if (!worker) {
    worker = (async () => {
      const boss = await getJobQueue(handle);
      // A finished task usually releases dependents: resolve at once rather than at the
      // resolver's next pass, once per burst of completions.
      let resolving: NodeJS.Timeout | null = null;
      const resolveSoon = () => {
        resolving ??= setTimeout(() => {
          resolving = null;
          void boss.resolveFlow().catch(() => undefined);
        }, 20);
      };
      return boss.work<TaskJobData>(
        TASK_QUEUE,
        // While tasks are waiting, each worker fetches the next as soon as it is free, not a poll later.
        { localConcurrency: options.concurrency ?? 8, pollingIntervalSeconds: 0.5, batchSize: 1, burstWhenReadyExceeds: 1 },
        async ([job]) => {
          try {
            await runTaskJob(handle, job, options);
          } finally {
            setTimeout(resolveSoon, 5);
          }
        },
      );
    })().catch((error: unknown) => {
      started.delete(handle);
      throw error;
    });
    started.set(handle, worker);
  }
  return worker;
}

/** Stops taking jobs, lets the ones in hand finish (up to a few seconds), and closes the feed. */
export async function stopRunWorkers(handle: DatabaseHandle): Promise<void> {
  started.delete(handle);
  await stopJobQueue(handle);
  await closeRunFeed(handle);
}
