import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Job, JobWithMetadata, PgBoss } from 'pg-boss';
import type { DatabaseHandle } from '../platform/db/client';
import { webhookDeliveries, webhooks, type WebhookAttempt } from '../platform/db/schema';
import { jobFailureMessage, jobsIn, stopJobQueue } from '../runs/job-queue';
import {
  closeWebhookQueue,
  DEAD_WEBHOOK_QUEUE,
  enqueuePendingDeliveries,
  openWebhookQueue,
  WEBHOOK_QUEUE,
  type DeliveryJob,
  type WebhookRetryPolicy,
} from './webhook-queue';
import { sendDelivery, type SendOutcome } from './webhook-sender';
import { openWebhookSecret } from './webhook-secret-box';
import { sealStoredWebhookSecrets } from './webhook-service';

// Sends the queued deliveries. pg-boss hands each job to one worker of one instance; the
// HTTP request runs outside any transaction (a slow receiver holds no lock and, on PGlite,
// never blocks the database). Its outcome is then recorded in one transaction with the job's
// settlement, fenced on the attempt pg-boss handed out: the log says what the queue did, and
// an attempt pg-boss already gave up on (it ran past its expiry) records nothing.

export interface WebhookOptions {
  /** Send from this process (default); false only lets its actions queue deliveries. PLANGATE_WEBHOOKS=off also stops sending. */
  work?: boolean;
  /** The queue's retry options (tests make them quick). */
  policy?: WebhookRetryPolicy;
}

export interface WebhookWorker {
  /** Stops taking deliveries and waits for the ones being sent to be recorded. */
  stop(): Promise<void>;
}

/** Parallel sends per instance: two fetchers with up to five deliveries each. */
const FETCHERS = 2;
const BATCH = 5;
/**
 * Each fetcher's poll: a new delivery's job wakes them (the queue notifies), so polling only
 * finds a retry whose backoff ran out, which waits seconds anyway.
 */
const POLL_SECONDS = 2;

/** A settlement that changed no job: pg-boss no longer gives this attempt to this worker. */
class AttemptLost extends Error {}

const appended = (entry: WebhookAttempt) => sql`${webhookDeliveries.attemptLog} || ${JSON.stringify([entry])}::jsonb`;

function settledAny(response: unknown): boolean {
  return ((response as { affected?: number }).affected ?? 0) > 0;
}

async function deliver(handle: DatabaseHandle, boss: PgBoss, job: Job<DeliveryJob>): Promise<void> {
  const [row] = await handle.db
    .select({ id: webhookDeliveries.id, event: webhookDeliveries.event, body: webhookDeliveries.body, status: webhookDeliveries.status, url: webhooks.url, secret: webhooks.secret, webhookId: webhooks.id })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(eq(webhookDeliveries.id, job.data.delivery_id));
  // Gone with its webhook, or already settled (say the process died after recording): nothing to send.
  if (!row || row.status !== 'pending') {
    await boss.complete(WEBHOOK_QUEUE, job);
    return;
  }
  const outcome = await sendDelivery({ ...row, secret: openWebhookSecret(row.secret, row.webhookId) }, job.retryCount + 1, job.signal);
  // pg-boss took the attempt back (it outlived its expiry, or the process is stopping) and settles it itself.
  if (job.signal.aborted) return;
  await record(handle, boss, job, outcome).catch((error: unknown) => {
    if (!(error instanceof AttemptLost)) throw error;
  });
}

/** Settles the attempt's job and writes the attempt to the delivery log, in one transaction. */
async function record(handle: DatabaseHandle, boss: PgBoss, job: Job<DeliveryJob>, { entry, refused }: SendOutcome): Promise<void> {
  await handle.db.transaction(async (tx) => {
    const db = jobsIn(handle, tx);
    // A refused address is given up at once: the job is done, the delivery failed.
    const settled =
      !entry.error || refused
        ? await boss.complete(WEBHOOK_QUEUE, job, { status_code: entry.status_code }, { db })
        : await boss.fail(WEBHOOK_QUEUE, job, { message: entry.error }, { db });
    if (!settledAny(settled)) throw new AttemptLost();
    let status = !entry.error ? 'delivered' : refused ? 'failed' : 'pending';
    let nextAttemptAt: Date | undefined;
    if (status === 'pending') {
      // pg-boss chose when to try again (with jitter), or that the retries are used up.
      const next = await boss.getJobById<DeliveryJob>(WEBHOOK_QUEUE, job.id, { db });
      // Through a drizzle transaction the row comes back unparsed: the time may be a string.
      if (next?.state === 'retry') nextAttemptAt = new Date(next.startAfter);
      else status = 'failed';
    }
    await tx
      .update(webhookDeliveries)
      .set({ status, attempts: entry.attempt, attemptLog: appended(entry), nextAttemptAt, deliveredAt: status === 'delivered' ? sql`clock_timestamp()` : undefined })
      .where(eq(webhookDeliveries.id, job.data.delivery_id));
  });
}

/**
 * A job pg-boss failed on its own (an attempt that outlived its expiry, a recording that kept
 * failing) after its last retry: the delivery is given up, with pg-boss's reason as the entry.
 */
async function giveUp(handle: DatabaseHandle, job: JobWithMetadata<DeliveryJob>): Promise<void> {
  const reason = jobFailureMessage(job.sourceOutput) ?? 'the job queue failed it';
  const entry: WebhookAttempt = {
    attempt: (job.sourceRetryCount ?? 0) + 1,
    at: new Date().toISOString(),
    status_code: null,
    error: `Given up: ${reason}`.slice(0, 500),
    duration_ms: 0,
  };
  await handle.db
    .update(webhookDeliveries)
    .set({ status: 'failed', attemptLog: appended(entry) })
    .where(and(eq(webhookDeliveries.id, job.data.delivery_id), eq(webhookDeliveries.status, 'pending')));
}

/**
 * Works the webhook queues on `boss` (startWebhooks' queue instance; tests also start a second
 * one, as a second server would have).
 */
export async function startWebhookWorker(handle: DatabaseHandle, boss: PgBoss): Promise<WebhookWorker> {
  const sending = await boss.work<DeliveryJob>(WEBHOOK_QUEUE, { pollingIntervalSeconds: POLL_SECONDS, notifyPollingIntervalSeconds: POLL_SECONDS, localConcurrency: FETCHERS, batchSize: BATCH }, async (jobs) => {
    const results = await Promise.allSettled(jobs.map((job) => deliver(handle, boss, job)));
    // pg-boss then fails the batch's jobs still in hand (only those: settlements are fenced), and retries them.
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  });
  // Rare and in no hurry: polled less often.
  const dead = await boss.work(DEAD_WEBHOOK_QUEUE, { pollingIntervalSeconds: 2, includeMetadata: true, batchSize: BATCH }, async (jobs: JobWithMetadata<DeliveryJob>[]) => {
    for (const job of jobs) await giveUp(handle, job);
  });
  // Deliveries recorded where no queue was set up, or left by an older version, get their jobs now.
  const adopted = await enqueuePendingDeliveries(handle, boss);
  if (adopted) console.info(`[plangate] webhooks: queued ${adopted} pending deliver${adopted === 1 ? 'y' : 'ies'}`);
  return {
    async stop() {
      await boss.offWork(WEBHOOK_QUEUE, { id: sending, wait: true }).catch(() => undefined);
      await boss.offWork(DEAD_WEBHOOK_QUEUE, { id: dead, wait: true }).catch(() => undefined);
    },
  };
}

/**
 * Sets up outgoing webhooks on a freshly opened database: its actions queue deliveries from
 * now on, and unless told not to (or PLANGATE_WEBHOOKS=off) this process sends them. Closing
 * the database stops the sending and the queue first.
 */
export async function startWebhooks(handle: DatabaseHandle, options: WebhookOptions = {}): Promise<WebhookWorker | null> {
  await sealStoredWebhookSecrets(handle.db);
  const boss = await openWebhookQueue(handle, options.policy);
  const worker = options.work !== false && process.env.PLANGATE_WEBHOOKS !== 'off' ? await startWebhookWorker(handle, boss) : null;
  const close = handle.close;
  handle.close = async () => {
    closeWebhookQueue(handle);
    await worker?.stop();
    await stopJobQueue(handle);
    await close();
  };
  return worker;
}
