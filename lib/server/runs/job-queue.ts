import 'server-only';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PgBoss, fromDrizzle, fromPglite, type Db, type JobInsert } from 'pg-boss';
import type { Database, DatabaseHandle } from '../platform/db/client';

// The durable part of running plans is pg-boss's: one job per task attempt-chain, retries
// with backoff, expiry, and re-delivery of a job whose worker stopped. Which task is ready,
// and whether it may start, is Plangate's (run-scheduler.ts, task-runner.ts): a job is queued
// only once its task's dependencies succeeded, so jobs carry no dependencies of their own.
// On PostgreSQL pg-boss has its own pool, so several app instances and workers share the
// queue; on PGlite it runs in this process over the one connection. The task queue notifies
// (LISTEN/NOTIFY, on both databases): a job queued in a committed transaction wakes the
// workers at once instead of at their next poll, which a chain of tasks paid at every step.
// The workers' fetch loop (task-fetcher.ts) also wakes when a failed job's backoff runs out,
// and polls every few seconds for what nothing announces: a NOTIFY lost while the listener
// reconnected.

/**
 * The channel pg-boss notifies with a queue's name when a committed transaction queued jobs on
 * it (a queue with `notify`): its expression (plans.notifyChannelSql) for the default schema,
 * "pgboss". The run feed listens on it for the task fetch loop (task-fetcher.ts).
 */
export const JOB_NOTICE_CHANNEL = `pgboss_${createHash('sha224').update('pgboss').digest('hex').slice(0, 24)}`;

/** One task's job: it opens the task's gate, or starts an attempt of it. */
export const TASK_QUEUE = 'plangate-task';
/**
 * Where pg-boss puts a task job it failed on its own: retries used up by crashes, expiry,
 * an error thrown outside the handler's own handling. The run workers work this queue and
 * record the task as failed, so a run never waits on a job that is gone.
 */
export const DEAD_TASK_QUEUE = 'plangate-task-dead';

/**
 * pg-boss fails an active job whose heartbeat stopped this long ago (its minimum): the slow
 * backstop. Plangate's own worker leases (run-recovery.ts) take a dead worker's attempt
 * over within a few seconds.
 */
export const HEARTBEAT_SECONDS = 10;

const queues = new WeakMap<DatabaseHandle, Promise<PgBoss>>();
const startedQueues = new WeakMap<DatabaseHandle, PgBoss>();

function create(handle: DatabaseHandle): PgBoss {
  const timing = {
    // The monitor fails jobs whose heartbeat or expiry ran out, and refreshes the queue's
    // ready count, which lets free workers fetch at once while tasks wait (burst).
    superviseIntervalSeconds: 2,
    monitorIntervalSeconds: 2,
    queueCacheIntervalSeconds: 2,
    useListenNotify: true,
  };
  return handle.jobs.kind === 'postgres'
    ? new PgBoss({ connectionString: handle.jobs.url, max: 5, application_name: 'plangate-jobs', ...timing })
    : new PgBoss({ backend: 'pglite', db: fromPglite(handle.jobs.client), ...timing });
}

async function ensureQueue(boss: PgBoss, name: string, options: Parameters<PgBoss['createQueue']>[1]): Promise<void> {
  const existing = await boss.getQueue(name);
  if (existing) {
    // A queue made by an earlier version lacks the dead letter: every failed job must reach it.
    if (options?.deadLetter && existing.deadLetter !== options.deadLetter) await boss.updateQueue(name, { deadLetter: options.deadLetter });
    // One made before queues notified polls only.
    if (options?.notify && !existing.notify) await boss.updateQueue(name, { notify: true });
    return;
  }
  await boss.createQueue(name, options).catch(async (error: Error) => {
    // Another instance made it first.
    if (!(await boss.getQueue(name))) throw error;
  });
}

async function start(handle: DatabaseHandle): Promise<PgBoss> {
  const boss = create(handle);
  // A failing maintenance query must not take the server down; it is reported and retried.
  boss.on('error', (error) => console.error('[plangate] job queue:', error.message));
  await boss.start();
  const retention = { retentionSeconds: 30 * 24 * 3600 };
  // A dead letter is reconciled by a quick, idempotent transaction: retry it for a while.
  await ensureQueue(boss, DEAD_TASK_QUEUE, { ...retention, retryLimit: 20, retryDelay: 1, retryBackoff: true, retryDelayMax: 30 });
  await ensureQueue(boss, TASK_QUEUE, { ...retention, heartbeatSeconds: HEARTBEAT_SECONDS, deadLetter: DEAD_TASK_QUEUE, notify: true });
  return boss;
}

/**
 * A queue instance of its own, not the process's: tests and the bench start a second worker
 * on one to kill it as a separate process would die. The caller stops it.
 */
/**
 * The reason pg-boss gave for a job it failed on its own. A handler that outlived its expiry
 * fails with `{ message }`; the maintenance sweep that expires a job nobody finished writes
 * `{ value: { message } }`. Which one fires depends on timing, so both are read.
 */
export function jobFailureMessage(output: unknown): string | undefined {
  const shaped = output as { message?: unknown; value?: { message?: unknown } } | null | undefined;
  const message = shaped?.value?.message ?? shaped?.message;
  return typeof message === 'string' ? message : undefined;
}

export const openJobQueue = (handle: DatabaseHandle): Promise<PgBoss> => start(handle);

/** The process's queue on this database, started on first use. */
export function getJobQueue(handle: DatabaseHandle): Promise<PgBoss> {
  let started = queues.get(handle);
  if (!started) {
    started = start(handle).then(
      (boss) => {
        startedQueues.set(handle, boss);
        return boss;
      },
      (error: unknown) => {
        queues.delete(handle);
        throw error;
      },
    );
    queues.set(handle, started);
  }
  return started;
}

/**
 * The process's queue, for use inside a transaction: it must be started already (the caller
 * awaited getJobQueue before opening the transaction), since on PGlite starting it there
 * would wait on that transaction's connection forever.
 */
export function startedJobQueue(handle: DatabaseHandle): PgBoss {
  const boss = startedQueues.get(handle);
  if (!boss) throw new Error('The job queue is not started: await getJobQueue(handle) before the transaction');
  return boss;
}

export async function stopJobQueue(handle: DatabaseHandle): Promise<void> {
  const started = queues.get(handle);
  queues.delete(handle);
  startedQueues.delete(handle);
  if (started) await (await started).stop({ graceful: true, timeout: 5_000 }).catch(() => undefined);
}

/**
 * The queue as seen from inside `tx`, so jobs are enqueued in the same transaction as the
 * rows that describe them: both commit or neither does. On PGlite, pg-boss issues
 * multi-statement SQL that drizzle's prepared statements refuse, so it goes through
 * PGlite's own transaction object, the one drizzle's transaction runs on.
 */
export function jobsIn(handle: DatabaseHandle, tx: Database): Db {
  if (handle.jobs.kind === 'postgres') return fromDrizzle(tx as never, sql as never);
  const client = (tx as unknown as { session?: { client?: Parameters<typeof fromPglite>[0] } }).session?.client;
  if (!client) throw new Error('jobsIn: not inside a PGlite transaction');
  return fromPglite(client);
}

/** Queues task jobs through `db` (a transaction's view of the queue), a thousand per statement. */
export async function enqueueTaskJobs(boss: PgBoss, jobs: JobInsert[], db: Db): Promise<void> {
  for (let i = 0; i < jobs.length; i += 1000) await boss.insert(TASK_QUEUE, jobs.slice(i, i + 1000), { db });
}
