import 'server-only';
import { eq } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import type { Database, DatabaseHandle } from '../platform/db/client';
import { webhookDeliveries } from '../platform/db/schema';
import { getJobQueue, jobsIn } from '../runs/job-queue';

// Outgoing webhook deliveries are pg-boss jobs on the run engine's queue instance: pg-boss
// does the retries, the backoff and the dead letter; Plangate's webhook_deliveries table is
// the delivery log the admin reads. A delivery's job has the delivery's id, so a delivery
// is queued at most once however often it is queued.

export const WEBHOOK_QUEUE = 'plangate-webhook';
/** Where pg-boss puts a delivery job it failed on its own (a send that outlived its expiry, say): recorded as given up. */
export const DEAD_WEBHOOK_QUEUE = 'plangate-webhook-dead';

/** The retry options of WEBHOOK_QUEUE (pg-boss queue options; delays in seconds). */
export interface WebhookRetryPolicy {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  /** The longest wait, with retryBackoff; null without it (pg-boss refuses one). */
  retryDelayMax: number | null;
  /** How long one attempt may take before pg-boss fails it; more than a send's timeout. */
  expireInSeconds: number;
}

/**
 * Five attempts, waits growing to 64 s, given up after one to two minutes, as the hand-written
 * sender did (1, 4, 16, 64 s). pg-boss's backoff doubles with jitter (retryDelay × 2^n to twice
 * that), so the first wait is 4 to 8 s and the last 32 to 64 s.
 */
export const WEBHOOK_RETRY_POLICY: WebhookRetryPolicy = { retryLimit: 4, retryDelay: 4, retryBackoff: true, retryDelayMax: 64, expireInSeconds: 60 };

/** The waits of `policy` in words, for the admin page: "retried 4 times (after 4–8, 8–16, 16–32 and 32–64 seconds)". */
export function retrySummary(policy: WebhookRetryPolicy = WEBHOOK_RETRY_POLICY): string {
  const times = `retried ${policy.retryLimit} time${policy.retryLimit === 1 ? '' : 's'}`;
  if (!policy.retryLimit) return 'not retried';
  if (!policy.retryBackoff) return policy.retryDelay ? `${times}, ${policy.retryDelay} s apart` : `${times} at once`;
  // pg-boss waits retryDelay × 2^n, up to twice that (jitter), never more than retryDelayMax.
  const cap = (seconds: number) => Math.min(seconds, policy.retryDelayMax ?? Infinity);
  const waits = Array.from({ length: policy.retryLimit }, (_, n) => {
    const shortest = cap(Math.max(policy.retryDelay, 1) * 2 ** n);
    return shortest === cap(shortest * 2) ? String(shortest) : `${shortest}–${cap(shortest * 2)}`;
  });
  const list = waits.length > 1 ? `${waits.slice(0, -1).join(', ')} and ${waits.at(-1)}` : waits[0];
  return `${times} (after ${list} seconds)`;
}

const RETENTION = { retentionSeconds: 30 * 24 * 3600 };

export interface DeliveryJob {
  delivery_id: string;
}

interface Registered {
  handle: DatabaseHandle;
  boss: PgBoss;
}

// Which databases have the queue set up in this process. Keyed by the drizzle dialect, the one
// object a database shares with every transaction opened on it, because emitWebhookEvent gets
// only the caller's transaction. On globalThis: instrumentation.ts (which sets the queue up) and
// the routes (which emit) are separate bundles with separate module state.
const registryKey = Symbol.for('plangate.webhookQueues');
type GlobalWithRegistry = typeof globalThis & { [registryKey]?: WeakMap<object, Registered> };

function registry(): WeakMap<object, Registered> {
  const store = globalThis as GlobalWithRegistry;
  store[registryKey] ??= new WeakMap();
  return store[registryKey];
}

const keyOf = (db: Database): object => (db as unknown as { dialect: object }).dialect;

/**
 * Starts (or joins) the database's job queue, creates the webhook queues or brings their
 * options up to date, and lets transactions on `handle` enqueue deliveries. Done outside any
 * transaction: on PGlite a queue lookup from inside one would wait for the transaction itself.
 */
export async function openWebhookQueue(handle: DatabaseHandle, policy: WebhookRetryPolicy = WEBHOOK_RETRY_POLICY): Promise<PgBoss> {
  const boss = await getJobQueue(handle);
  const dead = { ...RETENTION, retryLimit: 20, retryDelay: 1, retryBackoff: true, retryDelayMax: 30 };
  // A queued delivery wakes the senders at once (NOTIFY); retries are found by their poll.
  const live = { ...RETENTION, ...policy, deadLetter: DEAD_WEBHOOK_QUEUE, notify: true };
  // createQueue leaves an existing queue as it is; updateQueue then applies this version's policy to it.
  for (const [name, options] of [
    [DEAD_WEBHOOK_QUEUE, dead],
    [WEBHOOK_QUEUE, live],
  ] as const) {
    // createQueue takes no cap rather than a null one; updateQueue's null clears a cap an earlier policy set.
    const { retryDelayMax, ...rest } = options;
    await boss.createQueue(name, retryDelayMax === null ? rest : { ...rest, retryDelayMax });
    await boss.updateQueue(name, options);
  }
  registry().set(keyOf(handle.db), { handle, boss });
  return boss;
}

/** Transactions on `handle` no longer enqueue (the database is closing). */
export function closeWebhookQueue(handle: DatabaseHandle): void {
  registry().delete(keyOf(handle.db));
}

/** Queues a job per delivery, a thousand per statement; returns how many were new (an id already queued is left alone). */
async function insertJobs(boss: PgBoss, ids: string[], db?: ReturnType<typeof jobsIn>): Promise<number> {
  let queued = 0;
  for (let i = 0; i < ids.length; i += 1000) {
    const jobs = ids.slice(i, i + 1000).map((id) => ({ id, data: { delivery_id: id } satisfies DeliveryJob }));
    queued += (await boss.insert(WEBHOOK_QUEUE, jobs, { returnId: true, ...(db ? { db } : {}) }))?.length ?? 0;
  }
  return queued;
}

/**
 * Queues the deliveries `tx` just recorded, in `tx`: the jobs commit with the action that
 * caused them, or not at all. Where this process has not set the queue up on the database (a
 * script, a test), the rows wait for the next start of a webhook worker, which queues them.
 */
export async function enqueueDeliveries(tx: Database, ids: string[]): Promise<void> {
  const queue = registry().get(keyOf(tx));
  if (queue && ids.length) await insertJobs(queue.boss, ids, jobsIn(queue.handle, tx));
}

/**
 * Queues every pending delivery that has no job: those recorded where the queue was not set
 * up, and those the hand-written sender left pending. A delivery with a job keeps it (same id).
 * Returns how many were queued.
 */
export async function enqueuePendingDeliveries(handle: DatabaseHandle, boss: PgBoss): Promise<number> {
  const pending = await handle.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending'));
  return insertJobs(
    boss,
    pending.map((row) => row.id),
  );
}
