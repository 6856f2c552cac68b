import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from '../db/client';
import { webhookDeliveries, webhooks, type WebhookAttempt } from '../db/schema';
import { guardedFetch, guardRefusal } from '../runs/dispatch/address-guard';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, sentSigningString, sign } from './signature';

// The in-process sender. Every instance polls for due deliveries and claims a batch with
// FOR UPDATE SKIP LOCKED, pushing each claimed row's next attempt out by a lease, so
// several instances share the work and a row being sent is never sent twice at once. The
// HTTP request runs outside any transaction (a slow receiver holds no lock and, on PGlite,
// never blocks the database); its outcome is written back afterwards. A process that dies
// mid-send leaves the row to be retried when its lease runs out.

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Waits before attempts 2..5; after the fifth failure the delivery is given up. */
export const WEBHOOK_BACKOFF_MS = [1_000, 4_000, 16_000, 64_000];
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_BACKOFF_MS.length + 1;
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 20_000;
const POLL_MS = 1_000;
const BATCH = 10;

export interface DispatcherOptions {
  pollMs?: number;
  backoffMs?: number[];
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface Claimed {
  id: string;
  webhook_id: string;
  event: string;
  body: string;
  attempts: number;
}

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private started = false;
  private lastError: string | null = null;
  private stopped = false;
  private readonly pollMs: number;
  private readonly backoffMs: number[];
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(
    private readonly db: Database,
    options: DispatcherOptions = {},
  ) {
    this.pollMs = options.pollMs ?? POLL_MS;
    this.backoffMs = options.backoffMs ?? WEBHOOK_BACKOFF_MS;
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    // A webhook's URL is configured in the app, not by the operator: it goes through the address guard.
    this.fetchImpl = options.fetch ?? guardedFetch;
  }

  start(): this {
    this.started = true;
    this.schedule(0);
    return this;
  }

  /** Polls soon (after `delayMs`) instead of at the next regular tick. */
  wake(delayMs = 0): void {
    if (!this.started || this.stopped || this.running) return;
    this.schedule(delayMs);
  }

  /** Stops polling and waits for the sends under way to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick()
        .then(() => {
          this.lastError = null;
        })
        .catch((error: unknown) => {
          // Said once per kind of failure, not every second while the database is away.
          const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
          if (!this.stopped && message !== this.lastError) console.error('[plangate] webhook dispatcher:', message);
          this.lastError = message;
        })
        .finally(() => {
          this.running = null;
          this.schedule(this.pollMs);
        });
    }, delayMs);
    // Never keeps a CLI or test process alive on its own.
    this.timer.unref?.();
  }

  /** One poll: claims the due deliveries and sends them; returns how many were sent. */
  async tick(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((row) => this.send(row)));
    return claimed.length;
  }

  private async claim(): Promise<Claimed[]> {
    const result = await this.db.execute<Record<string, unknown>>(sql`
      update ${webhookDeliveries} d
         set attempts = d.attempts + 1,
             next_attempt_at = clock_timestamp() + make_interval(secs => ${LEASE_MS / 1000})
       where d.id in (
         select id from ${webhookDeliveries}
          where status = 'pending' and next_attempt_at <= clock_timestamp()
          order by next_attempt_at
          limit ${BATCH}
          for update skip locked)
      returning d.id, d.webhook_id, d.event, d.body, d.attempts`);
    return (result as unknown as { rows: Claimed[] }).rows;
  }

  private async send(row: Claimed): Promise<void> {
    const [hook] = await this.db.select().from(webhooks).where(eq(webhooks.id, row.webhook_id));
    if (!hook) return; // deleted meanwhile; its deliveries went with it
    const started = Date.now();
    const timestamp = String(Math.floor(started / 1000));
    let statusCode: number | null = null;
    let error: string | null = null;
    // An address the operator has not allowed stays refused however often it is tried.
    let refused = false;
    try {
      const response = await this.fetchImpl(hook.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Plangate-Webhooks/1',
          'X-Plangate-Event': row.event,
          'X-Plangate-Delivery': row.id,
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: sign(hook.secret, sentSigningString(timestamp, row.body)),
        },
        body: row.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      statusCode = response.status;
      await response.body?.cancel().catch(() => undefined);
      if (statusCode < 200 || statusCode > 299) error = `HTTP ${statusCode}`;
    } catch (caught) {
      refused = guardRefusal(caught) !== null;
      error = describe(caught, this.timeoutMs);
    }
    const attempt: WebhookAttempt = { attempt: row.attempts, at: new Date(started).toISOString(), status_code: statusCode, error, duration_ms: Date.now() - started };
    const log = sql`${webhookDeliveries.attemptLog} || ${JSON.stringify([attempt])}::jsonb`;
    if (!error) {
      await this.db.update(webhookDeliveries).set({ status: 'delivered', deliveredAt: sql`clock_timestamp()`, attemptLog: log }).where(eq(webhookDeliveries.id, row.id));
    } else if (refused || row.attempts >= this.backoffMs.length + 1) {
      await this.db.update(webhookDeliveries).set({ status: 'failed', attemptLog: log }).where(eq(webhookDeliveries.id, row.id));
    } else {
      const wait = this.backoffMs[row.attempts - 1];
      await this.db
        .update(webhookDeliveries)
        .set({ attemptLog: log, nextAttemptAt: sql`clock_timestamp() + make_interval(secs => ${wait / 1000})` })
        .where(eq(webhookDeliveries.id, row.id));
      this.wake(wait);
    }
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `Timed out after ${timeoutMs / 1000} s`;
  const refusal = guardRefusal(error);
  if (refusal) return `Refused: ${refusal.message}`.slice(0, 500);
  // The socket's own words (refused, reset, closed) would map which ports are open.
  return 'Could not reach the webhook URL';
}

// One dispatcher per process, on globalThis like the database handle.
const globalKey = Symbol.for('plangate.webhookDispatcher');
type GlobalWithDispatcher = typeof globalThis & { [globalKey]?: WebhookDispatcher };

/**
 * Starts this process's dispatcher on the database (once) and makes closing the database
 * stop it first. PLANGATE_WEBHOOKS=off leaves it off (the rows still queue up).
 */
export function startWebhookDispatcher(handle: DatabaseHandle, options?: DispatcherOptions): WebhookDispatcher | null {
  if (process.env.PLANGATE_WEBHOOKS === 'off') return null;
  const store = globalThis as GlobalWithDispatcher;
  if (store[globalKey]) return store[globalKey];
  const dispatcher = new WebhookDispatcher(handle.db, options).start();
  store[globalKey] = dispatcher;
  const close = handle.close;
  handle.close = async () => {
    if (store[globalKey] === dispatcher) delete store[globalKey];
    await dispatcher.stop();
    await close();
  };
  return dispatcher;
}

export async function stopWebhookDispatcher(): Promise<void> {
  const store = globalThis as GlobalWithDispatcher;
  const dispatcher = store[globalKey];
  delete store[globalKey];
  await dispatcher?.stop();
}

export function wakeWebhookDispatcher(delayMs = 0): void {
  (globalThis as GlobalWithDispatcher)[globalKey]?.wake(delayMs);
}
