import 'server-only';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { eq, sql } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import type { DatabaseHandle } from '../platform/db/client';
import { runWorkers } from '../platform/db/schema';
import { DEAD_TASK_QUEUE, getJobQueue, HEARTBEAT_SECONDS, stopJobQueue } from './job-queue';
import { closeRunFeed } from './run-events';
import { reconcileLostJob, sweepQuietRuns, takeOverLostAttempts } from './run-recovery';
import type { TaskJobData } from './run-scheduler';
import { fetchTaskJobs } from './task-fetcher';
import { runTaskJob, type RunnerOptions } from './task-runner';

// The workers that carry out runs: started with the server (instrumentation.ts) and, on
// PostgreSQL, also as separate processes (`npm run plangate -- worker`). Any number of them
// share the queue; pg-boss gives each job to one of them. Each worker has a row in
// run_workers and beats every second; the attempts it holds are its lease. Every worker also
// works the dead-letter queue and sweeps for the attempts of workers that stopped beating
// and for quiet runs with lost jobs, so a run always reaches an end while any worker lives.

export interface WorkerOptions extends RunnerOptions {
  /** Tasks one process runs at once (calls mostly wait on the network). */
  concurrency?: number;
  /** A worker whose heartbeat is older than this is presumed dead and its attempts are taken over (default 3 s). */
  leaseSeconds?: number;
  /** How long a run may record nothing before the sweep checks its jobs (default 10 s). */
  quietSeconds?: number;
}

export interface RunWorker {
  id: string;
  /** Stops taking jobs, lets the ones in hand finish, and removes its row (its lease ends at once). */
  stop(): Promise<void>;
  /**
   * Dies as a killed process would (for tests and the bench): no more heartbeats, jobs or
   * writes; its calls are cut; its attempts stay recorded as running until taken over.
   */
  kill(): Promise<void>;
}

const HEARTBEAT_MS = 1_000;
const TAKEOVER_SWEEP_MS = 1_000;
const QUIET_SWEEP_MS = 5_000;

const started = new WeakMap<DatabaseHandle, Promise<RunWorker>>();

/**
 * How often a worker's fetch loop polls the task queue. A newly queued job wakes it at once (the
 * queue's NOTIFY), so does a failed job's backoff running out, and while tasks are waiting it
 * fetches as soon as a slot is free, so the poll only finds what nothing announces: a NOTIFY lost
 * while the listener reconnected, a job another party failed.
 */
export const TASK_POLL_SECONDS = 2;

/** How long a stopping worker waits for the jobs in hand before it fails them back to the queue. */
const STOP_GRACE_MS = 4_000;

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

/** Runs `fn` every `ms`, never two at once; errors are reported and the next tick tries again. */
function every(ms: number, what: string, fn: () => Promise<unknown>): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    fn()
      .catch((error: unknown) => console.error(`[plangate] run workers, ${what}:`, error instanceof Error ? error.message : error))
      .finally(() => {
        busy = false;
      });
  }, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Starts one worker on `boss` (the process's queue unless given: tests and the bench start a
 * second one on its own queue instance to kill it).
 */
export async function startRunWorker(handle: DatabaseHandle, options: WorkerOptions, given?: PgBoss): Promise<RunWorker> {
  const boss = given ?? (await getJobQueue(handle));
  const id = randomUUID();
  const killed = new AbortController();
  const worker = { id, killed: killed.signal };
  await handle.db.insert(runWorkers).values({ id, host: os.hostname(), pid: process.pid });

  const stops = [
    every(HEARTBEAT_MS, 'heartbeat', () => handle.db.update(runWorkers).set({ heartbeatAt: sql`clock_timestamp()` }).where(eq(runWorkers.id, id))),
    every(TAKEOVER_SWEEP_MS, 'takeover', () => takeOverLostAttempts(handle, id, options.leaseSeconds ?? 3)),
    every(QUIET_SWEEP_MS, 'sweep', () => sweepQuietRuns(handle, options.quietSeconds ?? 10)),
  ];
  const tasks = await fetchTaskJobs<TaskJobData>(handle, boss, { concurrency: options.concurrency ?? 8, pollSeconds: TASK_POLL_SECONDS, heartbeatSeconds: HEARTBEAT_SECONDS / 2 }, (job) =>
    runTaskJob(handle, job, worker, options),
  );
  const deadWork = await boss.work<TaskJobData>(DEAD_TASK_QUEUE, { localConcurrency: 2, pollingIntervalSeconds: TASK_POLL_SECONDS, batchSize: 1 }, async ([job]) => {
    if (killed.signal.aborted) return new Promise<never>(() => undefined);
    await reconcileLostJob(handle, job.data);
  });

  const quit = () => stops.forEach((stop) => stop());
  return {
    id,
    async stop() {
      quit();
      await tasks.stop(STOP_GRACE_MS);
      await boss.offWork(DEAD_TASK_QUEUE, { id: deadWork, wait: true });
      await handle.db.delete(runWorkers).where(eq(runWorkers.id, id));
    },
    async kill() {
      killed.abort();
      quit();
      tasks.kill();
      await boss.offWork(DEAD_TASK_QUEUE, { id: deadWork, wait: false });
    },
  };
}

/** The process's worker on this database, started once. */
export function startRunWorkers(handle: DatabaseHandle, options: WorkerOptions): Promise<RunWorker> {
  let worker = started.get(handle);
  if (!worker) {
    worker = startRunWorker(handle, options).catch((error: unknown) => {
      started.delete(handle);
      throw error;
    });
    started.set(handle, worker);
  }
  return worker;
}

/** Stops taking jobs, lets the ones in hand finish (up to a few seconds), and closes the feed. */
export async function stopRunWorkers(handle: DatabaseHandle): Promise<void> {
  const worker = started.get(handle);
  started.delete(handle);
  // Graceful up to a few seconds: a call still under way then is failed back to the queue by pg-boss.
  await Promise.race([worker?.then((w) => w.stop()).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  await stopJobQueue(handle);
  await closeRunFeed(handle);
}
