import 'server-only';
import { sql } from 'drizzle-orm';
import { PgBoss, fromDrizzle, fromPglite, type Db, type FlowJob } from 'pg-boss';
import type { Database, DatabaseHandle } from '../db/client';

// The durable part of running plans is pg-boss's, not ours: one job per task, dependencies
// as job dependencies, retries with backoff, expiry, and takeover of a dead worker's jobs.
// On PostgreSQL it has its own pool (and LISTEN/NOTIFY), so several app instances and
// workers share the queue; on PGlite it runs in this process over the one connection.
// LISTEN/NOTIFY is left off: it wakes workers when a job is created, not when a dependent is
// released, which is how most tasks of a plan become ready; workers poll instead.

/** A task's attempt, and a gate's notice (its dependencies are done: ask a person). */
export const TASK_QUEUE = 'plangate-task';
/**
 * A gate's decision: nothing works this queue. A person's approve or reject completes the
 * job, which releases the gated task's job (it depends on it).
 */
export const DECISION_QUEUE = 'plangate-decision';

/** A worker found dead (its heartbeat stopped) is noticed within about this many seconds twice over. */
const HEARTBEAT_SECONDS = 10;

const queues = new WeakMap<DatabaseHandle, Promise<PgBoss>>();

function create(handle: DatabaseHandle): PgBoss {
  const timing = {
    // Dependents are released by a background pass: every second keeps a deep plan moving.
    flowIntervalSeconds: 1,
    // The monitor notices a dead worker's jobs and refreshes the queue's ready count, which
    // lets free workers fetch at once while tasks wait (burst) instead of a poll later.
    superviseIntervalSeconds: 2,
    monitorIntervalSeconds: 2,
    queueCacheIntervalSeconds: 2,
  };
  return handle.jobs.kind === 'postgres'
    ? new PgBoss({ connectionString: handle.jobs.url, max: 5, application_name: 'plangate-jobs', ...timing })
    : new PgBoss({ backend: 'pglite', db: fromPglite(handle.jobs.client), ...timing });
}

async function start(handle: DatabaseHandle): Promise<PgBoss> {
  const boss = create(handle);
  // A failing maintenance query must not take the server down; it is reported and retried.
  boss.on('error', (error) => console.error('[plangate] job queue:', error.message));
  await boss.start();
  for (const name of [TASK_QUEUE, DECISION_QUEUE]) {
    if (!(await boss.getQueue(name))) {
      await boss.createQueue(name, { heartbeatSeconds: HEARTBEAT_SECONDS, retentionSeconds: 30 * 24 * 3600 }).catch(async (error: Error) => {
        // Another instance made it first.
        if (!(await boss.getQueue(name))) throw error;
      });
    }
  }
  return boss;
}

/** The process's queue on this database, started on first use. */
export function getJobQueue(handle: DatabaseHandle): Promise<PgBoss> {
  let started = queues.get(handle);
  if (!started) {
    started = start(handle).catch((error: unknown) => {
      queues.delete(handle);
      throw error;
    });
    queues.set(handle, started);
  }
  return started;
}

export async function stopJobQueue(handle: DatabaseHandle): Promise<void> {
  const started = queues.get(handle);
  queues.delete(handle);
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

/** Enqueues `jobs` with their dependencies through `db`; pg-boss's flow() wants two or more. */
export async function enqueue(boss: PgBoss, jobs: FlowJob[], db: Db): Promise<void> {
  if (jobs.length === 1) await boss.insert(jobs[0].name, [{ ...jobs[0].options, data: jobs[0].data }], { db });
  else if (jobs.length > 1) await boss.flow(jobs, { db });
}
