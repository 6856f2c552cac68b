import 'server-only';
import { EventEmitter } from 'node:events';
import { sql, type SQL } from 'drizzle-orm';
import type { Database, DatabaseHandle } from '../platform/db/client';
import { runEvents } from '../platform/db/schema';
import { JOB_NOTICE_CHANNEL } from './job-queue';

// The run's append-only record and its live feed. An event is a row written in the
// transaction of the change it describes; a NOTIFY in the same transaction wakes the
// readers of the feed (the run view's SSE stream) on commit, in this process and, on
// PostgreSQL, in every other instance. Readers also poll, so a lost wake-up costs a second.

export const RUN_EVENT_KINDS = [
  'run_started',
  'run_state',
  'run_cancelled',
  'run_paused',
  'run_resumed',
  'task_started',
  'task_succeeded',
  'task_failed',
  'task_retrying',
  'task_blocked',
  'task_cancelled',
  'task_carried',
  'task_retried',
  'task_accepted',
  'gate_waiting',
  'gate_approved',
  'gate_rejected',
] as const;
export type RunEventKind = (typeof RUN_EVENT_KINDS)[number];

const CHANNEL = 'plangate_run_events';

export interface RunEventInput {
  kind: RunEventKind;
  taskId?: string | null;
  actor?: string | null;
  detail?: Record<string, unknown>;
}

/**
 * Events written in the same statement as the change they describe, made from the rows a
 * data-modifying CTE returns: `with` defines the CTE (`name AS (UPDATE … RETURNING …)`), and
 * `rows` selects from it the events' `kind`, `task_id`, `detail` (jsonb) and `ord` (their order);
 * `columns`, what the caller reads of the change (in the row returned). They go in after the
 * given events, each change's after the one before it. One round trip fewer for a change whose
 * events depend on which rows it changed. Changes in one statement must touch different rows.
 */
export interface DerivedEvents {
  with: SQL;
  rows: SQL;
  columns: SQL;
}

/**
 * Records `events` (then `derived`'s) and wakes the feed's readers on commit: one statement,
 * the NOTIFY riding on the insert. `also`: columns to select in the same statement, whose row
 * is returned: one round trip fewer for a caller that reads something next anyway. They see
 * every earlier statement's writes in the transaction, not those of this statement (of `derived`'s CTE).
 */
export async function appendRunEvents(tx: Database, runId: string, events: RunEventInput[], also?: SQL, derivedChanges: DerivedEvents[] = []): Promise<Record<string, unknown> | undefined> {
  const extra = sql.join(
    [also, ...derivedChanges.map((d) => d.columns)].filter((c): c is SQL => !!c).map((c) => sql`, ${c}`),
    sql``,
  );
  const derived = derivedChanges.length > 0;
  if (!events.length && !derived) return also ? rowsOf(await tx.execute(sql`SELECT ${also}`))[0] : undefined;
  let row: Record<string, unknown> | undefined;
  // A thousand a statement keeps within PostgreSQL's 65,535 parameters (blocking a big branch writes one per task).
  for (let i = 0; i < Math.max(events.length, 1); i += 1000) {
    const last = i + 1000 >= events.length;
    const chunk = events.slice(i, i + 1000);
    const given = chunk.map((e, n) => sql`(0, ${n}::int, ${e.kind}::text, ${e.taskId ?? null}::text, ${e.actor ?? null}::text, ${JSON.stringify(e.detail ?? {})}::jsonb)`);
    const parts = [
      ...(given.length ? [sql`SELECT * FROM (VALUES ${sql.join(given, sql`, `)}) AS given(part, ord, kind, task_id, actor, detail)`] : []),
      ...(last ? derivedChanges.map((d, n) => sql`SELECT ${n + 1}::int, d.ord::int, d.kind::text, d.task_id::text, NULL::text, d.detail::jsonb FROM (${d.rows}) AS d`) : []),
    ];
    const result = await tx.execute(sql`
      WITH ${last && derived ? sql`${sql.join(derivedChanges.map((d) => d.with), sql`, `)}, ` : sql``}recorded AS (
        INSERT INTO ${runEvents} (run_id, kind, task_id, actor, detail)
        SELECT ${runId}, e.kind, e.task_id, e.actor, e.detail FROM (${sql.join(parts, sql` UNION ALL `)}) AS e(part, ord, kind, task_id, actor, detail)
        ORDER BY e.part, e.ord
        RETURNING 1
      )
      SELECT (SELECT pg_notify(${CHANNEL}, ${runId}) FROM (SELECT 1 FROM recorded LIMIT 1) AS one) AS notified${last ? extra : sql``}`);
    if (last) row = rowsOf(result)[0];
  }
  return row;
}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

export const appendRunEvent = (tx: Database, runId: string, event: RunEventInput) => appendRunEvents(tx, runId, [event]);

interface Feed {
  emitter: EventEmitter;
  close(): Promise<void>;
}

const feeds = new WeakMap<DatabaseHandle, Promise<Feed>>();

/**
 * Emits `event` with the run id of every committed event, from any instance sharing the
 * database, and `queued` with the queue's name when a committed transaction queued jobs (the
 * job queue's own notice, which wakes the task fetch loop). One listening connection carries both.
 */
async function listen(handle: DatabaseHandle): Promise<Feed> {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const jobs = handle.jobs;
  if (jobs.kind === 'pglite') {
    const unlisten = await jobs.client.listen(CHANNEL, (runId) => emitter.emit('event', runId));
    const unlistenJobs = await jobs.client.listen(JOB_NOTICE_CHANNEL, (queue) => emitter.emit('queued', queue));
    return { emitter, close: () => Promise.all([unlisten(), unlistenJobs()]).then(() => undefined) };
  }
  const { Client } = await import('pg');
  let client: InstanceType<typeof Client> | null = null;
  let closed = false;
  const connect = async () => {
    const next = new Client({ connectionString: jobs.url, application_name: 'plangate-run-feed' });
    client = next;
    next.on('notification', (message) => message.payload && emitter.emit(message.channel === CHANNEL ? 'event' : 'queued', message.payload));
    // A dropped connection is made again; readers poll in the meantime.
    next.on('error', () => {
      next.end().catch(() => undefined);
      if (!closed) setTimeout(() => void connect().catch(() => undefined), 1_000).unref();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    await next.query(`LISTEN "${JOB_NOTICE_CHANNEL}"`);
  };
  await connect();
  return {
    emitter,
    close: async () => {
      closed = true;
      await client?.end().catch(() => undefined);
    },
  };
}

export function runFeed(handle: DatabaseHandle): Promise<Feed> {
  let feed = feeds.get(handle);
  if (!feed) {
    feed = listen(handle).catch((error: unknown) => {
      feeds.delete(handle);
      throw error;
    });
    feeds.set(handle, feed);
  }
  return feed;
}

export async function closeRunFeed(handle: DatabaseHandle): Promise<void> {
  const feed = feeds.get(handle);
  feeds.delete(handle);
  if (feed) await (await feed.catch(() => null))?.close();
}

/** Resolves when an event of `runId` commits, or after `ms` (the polling floor), or on abort. */
export async function nextRunEvent(handle: DatabaseHandle, runId: string, ms: number, signal?: AbortSignal): Promise<void> {
  const feed = (await runFeed(handle).catch(() => null))?.emitter;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      feed?.off('event', onEvent);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const onEvent = (id: string) => id === runId && done();
    const timer = setTimeout(done, ms);
    feed?.on('event', onEvent);
    signal?.addEventListener('abort', done);
  });
}
