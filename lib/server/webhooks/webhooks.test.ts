import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { CreateWebhookRequest, WebhookPayload, type WebhookEvent } from '@/lib/api/webhook-schemas';
import { ToolResource } from '@/lib/registry';
import { decide, submitForReview } from '../approval/approval-service';
import type { DatabaseHandle } from '../platform/db/client';
import { webhookDeliveries, webhooks } from '../platform/db/schema';
import { testDatabases, type TestDatabase } from '../platform/db/test-databases';
import { createPlan, savePlan } from '../plans/plan-service';
import { putResource } from '../registry/registry-service';
import { startWebhookReceiver, type WebhookReceiver } from '@/scripts/test-servers/webhook-receiver-test-support';
import { getJobQueue, jobsIn, openJobQueue } from '../runs/job-queue';
import { FETCH_THEN_SUMMARISE, principal, refusal } from '../platform/test-support';
import { emitWebhookEvent } from './events';
import { verifySent } from './signature';
import { DEAD_WEBHOOK_QUEUE, enqueuePendingDeliveries, openWebhookQueue, retrySummary, WEBHOOK_QUEUE, WEBHOOK_RETRY_POLICY, type WebhookRetryPolicy } from './webhook-queue';
import { startWebhooks, startWebhookWorker, type WebhookOptions } from './webhook-worker';
import { isSealed, openWebhookSecret } from './webhook-secret-box';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, sealStoredWebhookSecrets } from './webhook-service';

// The receivers listen on 127.0.0.1, which the address guard refuses unless the operator allows it.
process.env.PLANGATE_DISPATCH_ALLOW = '127.0.0.1';

const chain = FETCH_THEN_SUMMARISE;
const editor = principal('eddie', 'editor');
const approver = principal('alice', 'approver');
/** Nothing listens on the discard port. */
const NOWHERE = 'http://127.0.0.1:9/nothing';

/** Retried at once, three attempts in all: the logic without the waiting. */
const QUICK: WebhookRetryPolicy = { retryLimit: 2, retryDelay: 0, retryBackoff: false, retryDelayMax: null, expireInSeconds: 60 };
/** pg-boss's backoff and expiry, at the smallest scale it takes (whole seconds). */
const TIMED: WebhookRetryPolicy = { retryLimit: 1, retryDelay: 1, retryBackoff: true, retryDelayMax: 64, expireInSeconds: 2 };

/** Opens `database` with outgoing webhooks started on it for the describe block; closing it stops them. */
function useWebhookDatabase(database: TestDatabase, options: WebhookOptions): () => DatabaseHandle {
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    handle = await database.open();
    await startWebhooks(handle, options);
  });
  afterAll(async () => {
    await handle?.close();
  });
  return () => handle!;
}

/** A receiver that checks signatures with the secret of the webhook made for it. */
async function hookWithReceiver(db: DatabaseHandle['db'], events: WebhookEvent[], behaviour: Parameters<typeof startWebhookReceiver>[1] = {}) {
  const receiver = await startWebhookReceiver('set below', behaviour);
  const hook = await createWebhook(db, CreateWebhookRequest.parse({ url: receiver.url, events }), 'root');
  receiver.behaviour.secret = hook.secret;
  return { hook, receiver };
}

async function submitted(db: DatabaseHandle['db'], title: string) {
  const created = await createPlan(db, CreatePlanRequest.parse({ title, plan: chain }), editor.username);
  await expect(submitForReview(db, created.id, {}, editor)).resolves.toMatchObject({ status: 'in_review' });
  return created;
}

/** The webhook's deliveries once `count` of them are no longer pending. */
async function settled(db: DatabaseHandle['db'], hookId: string, count = 1, timeout = 15_000) {
  return vi.waitFor(
    async () => {
      const deliveries = await listDeliveries(db, hookId);
      expect(deliveries.filter((d) => d.status !== 'pending')).toHaveLength(count);
      return deliveries;
    },
    { timeout, interval: 100 },
  );
}

const closing: WebhookReceiver[] = [];
afterAll(async () => {
  await Promise.all(closing.map((receiver) => receiver.close()));
});

describe('webhook configuration', () => {
  it('takes only http(s) URLs without credentials and at least one known event', () => {
    expect(CreateWebhookRequest.safeParse({ url: 'https://hooks.example/x', events: ['plan.approved', 'comment.created'] }).success).toBe(true);
    for (const url of ['ftp://hooks.example/x', 'https://user:pw@hooks.example/x', 'https://user@hooks.example/', 'not a url', 'javascript:alert(1)']) {
      expect(CreateWebhookRequest.safeParse({ url, events: ['plan.approved'] }).success, url).toBe(false);
    }
    expect(CreateWebhookRequest.safeParse({ url: 'https://hooks.example/x', events: [] }).success).toBe(false);
    expect(CreateWebhookRequest.safeParse({ url: 'https://hooks.example/x', events: ['plan.deleted'] }).success).toBe(false);
  });

  it("tells the admin the retry policy's waits as pg-boss makes them", () => {
    expect(retrySummary()).toBe('retried 4 times (after 4–8, 8–16, 16–32 and 32–64 seconds)');
    expect(retrySummary({ ...WEBHOOK_RETRY_POLICY, retryLimit: 6 })).toBe('retried 6 times (after 4–8, 8–16, 16–32, 32–64, 64 and 64 seconds)');
    expect(retrySummary(TIMED)).toBe('retried 1 time (after 1–2 seconds)');
    expect(retrySummary(QUICK)).toBe('retried 2 times at once');
    expect(retrySummary({ ...QUICK, retryDelay: 3 })).toBe('retried 2 times, 3 s apart');
    expect(retrySummary({ ...QUICK, retryLimit: 0 })).toBe('not retried');
  });
});

describe.each(testDatabases())('webhooks on $name', (database) => {
  const handle = useWebhookDatabase(database, { policy: QUICK });
  const db = () => handle().db;
  afterEach(async () => {
    vi.unstubAllEnvs();
    await db().delete(webhooks);
  });

  it('keeps each signing secret sealed at rest, bound to its webhook, and seals one stored before sealing', async () => {
    const hook = await createWebhook(db(), CreateWebhookRequest.parse({ url: NOWHERE, events: ['plan.submitted'] }), 'root');
    const [row] = await db().select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(row.secret.startsWith('enc:v1:')).toBe(true);
    expect(row.secret).not.toContain(hook.secret);
    expect(openWebhookSecret(row.secret, hook.id)).toBe(hook.secret);
    // Copied onto another webhook's row, it does not open.
    expect(() => openWebhookSecret(row.secret, 'wh_other')).toThrow();

    await db().insert(webhooks).values({ id: 'wh_legacy', url: NOWHERE, events: ['plan.submitted'], secret: 'whsec_plain-from-before', createdBy: 'root' });
    expect(await sealStoredWebhookSecrets(db())).toBe(1);
    const [legacy] = await db().select().from(webhooks).where(eq(webhooks.id, 'wh_legacy'));
    expect(isSealed(legacy.secret)).toBe(true);
    expect(openWebhookSecret(legacy.secret, 'wh_legacy')).toBe('whsec_plain-from-before');
    expect(await sealStoredWebhookSecrets(db())).toBe(0);
  });

  it('sends nothing to an address the operator did not allow, and gives the delivery up at once', async () => {
    vi.stubEnv('PLANGATE_DISPATCH_ALLOW', '');
    const { hook, receiver } = await hookWithReceiver(db(), ['plan.submitted']);
    closing.push(receiver);
    const metadata = await createWebhook(db(), CreateWebhookRequest.parse({ url: 'http://169.254.169.254/latest/meta-data/', events: ['plan.submitted'] }), 'root');
    await submitted(db(), 'Guarded');
    for (const [id, said] of [
      [hook.id, 'Refused: 127.0.0.1 is a loopback address, which Plangate calls only when PLANGATE_DISPATCH_ALLOW lists the host or its network'],
      [metadata.id, 'Refused: 169.254.169.254 is a link-local address, which Plangate calls only when PLANGATE_DISPATCH_ALLOW lists the host or its network'],
    ]) {
      const [delivery] = await settled(db(), id);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null });
      expect(delivery.attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: null, error: said })]);
    }
    expect(receiver.deliveries).toEqual([]);
  });

  it('queues plan.submitted and plan.approved with the action and sends them signed after it commits', async () => {
    const { hook, receiver } = await hookWithReceiver(db(), ['plan.submitted', 'plan.approved', 'approval.stale']);
    closing.push(receiver);
    expect(hook.secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await listWebhooks(db()))).not.toContain(hook.secret);

    const created = await submitted(db(), 'Hooked');
    await decide(db(), created.id, 'approved', { revision: 1, content_hash: created.content_hash, comment: 'Fine' }, approver);
    // Each delivery's job was queued with it, under the delivery's id.
    const boss = await getJobQueue(handle());
    for (const delivery of await listDeliveries(db(), hook.id)) expect(await boss.getJobById(WEBHOOK_QUEUE, delivery.id)).not.toBeNull();

    const delivered = await settled(db(), hook.id, 2);
    expect(delivered.map((d) => [d.event, d.status])).toEqual([
      ['plan.approved', 'delivered'],
      ['plan.submitted', 'delivered'],
    ]);
    expect(receiver.deliveries).toHaveLength(2);
    // Checked by the receiver's own HMAC code, and by the helper the docs give receivers.
    expect(receiver.deliveries.every((d) => d.verified && d.status === 200)).toBe(true);
    const approved = receiver.deliveries.find((d) => d.headers['x-plangate-event'] === 'plan.approved')!;
    const raw = JSON.stringify(approved.body);
    const signed = { timestamp: String(approved.headers['x-plangate-timestamp']), signature: String(approved.headers['x-plangate-signature']) };
    expect(verifySent(hook.secret, signed, raw)).toEqual({ ok: true });
    expect(verifySent('whsec_other', signed, raw)).toMatchObject({ ok: false });
    expect(WebhookPayload.parse(approved.body)).toMatchObject({
      event: 'plan.approved',
      actor: 'alice',
      plan: { id: created.id, title: 'Hooked', revision: 1, content_hash: created.content_hash, status: 'approved' },
      detail: { comment: 'Fine', approvals: 1 },
    });
    expect(delivered[0].id).toBe(approved.headers['x-plangate-delivery']);
    expect(delivered[0].delivered_at).not.toBeNull();
    expect(delivered[0].attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null })]);

    // A content change voids the approval: approval.stale, naming the revision that did it.
    await savePlan(db(), created.id, SavePlanRequest.parse({ base_revision: 1, plan: { ...chain, planned_tasks: [chain.planned_tasks![0]] } }), editor.username);
    await settled(db(), hook.id, 3);
    expect(WebhookPayload.parse(receiver.deliveries[2].body)).toMatchObject({
      event: 'approval.stale',
      plan: { revision: 2, status: 'draft' },
      detail: { reason: 'revision', by_revision: 2 },
    });

    await deleteWebhook(db(), hook.id, 'root');
    expect((await refusal(listDeliveries(db(), hook.id))).status).toBe(404);
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id))).toEqual([]);
  });

  it('retries a failing receiver, records every attempt, never fails the action, and gives up after the last', async () => {
    const { hook, receiver } = await hookWithReceiver(db(), ['plan.submitted'], { failFirst: 2 });
    closing.push(receiver);
    const down = await createWebhook(db(), CreateWebhookRequest.parse({ url: NOWHERE, events: ['plan.submitted'] }), 'root');
    await submitted(db(), 'Retried');

    const [delivery] = await settled(db(), hook.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(delivery.attempt_log.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 500, 'HTTP 500'],
      [3, 200, null],
    ]);
    // The same delivery, body and signature scheme on every attempt.
    expect(receiver.deliveries.map((d) => d.status)).toEqual([500, 500, 200]);
    expect(new Set(receiver.deliveries.map((d) => d.headers['x-plangate-delivery']))).toEqual(new Set([delivery.id]));
    expect(new Set(receiver.deliveries.map((d) => JSON.stringify(d.body))).size).toBe(1);

    // Nothing listens on the other: given up after the third attempt, each one's error recorded.
    const [gaveUp] = await settled(db(), down.id);
    expect(gaveUp).toMatchObject({ status: 'failed', attempts: 3, next_attempt_at: null, delivered_at: null });
    expect(gaveUp.attempt_log.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, null, 'Could not reach the webhook URL'],
      [2, null, 'Could not reach the webhook URL'],
      [3, null, 'Could not reach the webhook URL'],
    ]);
    // pg-boss dead-lettered the job too; its worker finds the delivery given up already and adds nothing.
    const boss = await getJobQueue(handle());
    await vi.waitFor(async () => expect((await boss.findJobs(DEAD_WEBHOOK_QUEUE, { data: { delivery_id: gaveUp.id } })).map((job) => job.state)).toEqual(['completed']), {
      timeout: 10_000,
      interval: 200,
    });
    expect((await listDeliveries(db(), down.id))[0].attempt_log).toHaveLength(3);
  });

  it('queues nothing for an action whose transaction rolls back', async () => {
    const { hook, receiver } = await hookWithReceiver(db(), ['plan.submitted']);
    closing.push(receiver);
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Rolled back', plan: chain }), editor.username);
    const boss = await getJobQueue(handle());
    let ids: string[] = [];
    const action = db().transaction(async (tx) => {
      await emitWebhookEvent(tx, { event: 'plan.submitted', planId: created.id, actor: editor.username });
      ids = (await tx.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id))).map((row) => row.id);
      // Inside the transaction the delivery and its job exist together.
      expect(await boss.getJobById(WEBHOOK_QUEUE, ids[0], { db: jobsIn(handle(), tx) })).toMatchObject({ id: ids[0], data: { delivery_id: ids[0] } });
      throw new Error('the action failed after emitting');
    });
    await expect(action).rejects.toThrow('the action failed after emitting');
    expect(ids).toHaveLength(1);
    expect(await listDeliveries(db(), hook.id)).toEqual([]);
    expect(await boss.getJobById(WEBHOOK_QUEUE, ids[0])).toBeNull();
    expect(receiver.deliveries).toEqual([]);
  });

  it('sends approval.stale when a registry change voids an approval, naming the resources', async () => {
    const { hook, receiver } = await hookWithReceiver(db(), ['approval.stale']);
    closing.push(receiver);
    const created = await submitted(db(), 'Bound');
    await decide(db(), created.id, 'approved', { revision: 1, content_hash: created.content_hash, comment: '' }, approver);
    await putResource(db(), 'tools', 'http_get', ToolResource.parse({ id: 'http_get', description: 'GET a URL, now different' }), 'mallory');
    await settled(db(), hook.id);
    expect(WebhookPayload.parse(receiver.deliveries[0].body)).toMatchObject({
      event: 'approval.stale',
      actor: 'mallory',
      plan: { id: created.id, revision: 1, status: 'draft' },
      detail: { reason: 'registry_changed', reviews: [{ reviewer: 'alice', revision: 1 }], resources: [{ kind: 'tools', key: 'http_get' }] },
    });
  });

  it('lets several instances share the deliveries, sending each once', async () => {
    const other: PgBoss = await openJobQueue(handle());
    const second = await startWebhookWorker(handle(), other);
    try {
      const pairs = await Promise.all([0, 1, 2, 3].map(() => hookWithReceiver(db(), ['plan.submitted'])));
      closing.push(...pairs.map((pair) => pair.receiver));
      for (const title of ['One', 'Two', 'Three']) await submitted(db(), title);
      for (const { hook, receiver } of pairs) {
        const deliveries = await settled(db(), hook.id, 3);
        expect(deliveries.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
        expect(receiver.deliveries.map((d) => d.headers['x-plangate-delivery']).sort()).toEqual(deliveries.map((d) => d.id).sort());
      }
    } finally {
      await second.stop();
      await other.stop({ graceful: true, timeout: 2_000 }).catch(() => undefined);
    }
  });

  it('queues, once, a pending delivery that has no job (recorded where no queue was set up, or by an older version)', async () => {
    const { hook, receiver } = await hookWithReceiver(db(), ['plan.submitted']);
    closing.push(receiver);
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Adopted', plan: chain }), editor.username);
    const id = randomUUID();
    const body = JSON.stringify({ id: randomUUID(), event: 'plan.submitted', at: new Date().toISOString(), plan: null, actor: 'eddie', detail: {} });
    await db().insert(webhookDeliveries).values({ id, webhookId: hook.id, eventId: 'older', event: 'plan.submitted', planId: created.id, body });
    const boss = await getJobQueue(handle());
    const queued = await Promise.all([enqueuePendingDeliveries(handle(), boss), enqueuePendingDeliveries(handle(), boss)]);
    expect(queued.sort()).toEqual([0, 1]);
    const [delivery] = await settled(db(), hook.id);
    expect(delivery).toMatchObject({ id, status: 'delivered', attempts: 1 });
    expect(receiver.deliveries.map((d) => d.headers['x-plangate-delivery'])).toEqual([id]);
    expect(await enqueuePendingDeliveries(handle(), boss)).toBe(0);
  });

  describe("with pg-boss's backoff and expiry", () => {
    beforeAll(async () => {
      await openWebhookQueue(handle(), TIMED);
    });

    it('waits out the backoff before retrying, and the log says until when', async () => {
      const { hook, receiver } = await hookWithReceiver(db(), ['plan.submitted'], { failFirst: 1 });
      closing.push(receiver);
      await submitted(db(), 'Backoff');
      const waiting = await vi.waitFor(
        async () => {
          const [delivery] = await listDeliveries(db(), hook.id);
          expect(delivery.attempt_log).toHaveLength(1);
          return delivery;
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
      // retryDelay 1 with backoff: the first wait is one to two seconds from when the attempt failed.
      const failedAt = Date.parse(waiting.attempt_log[0].at) + waiting.attempt_log[0].duration_ms;
      const wait = Date.parse(waiting.next_attempt_at!) - failedAt;
      expect(wait).toBeGreaterThanOrEqual(900);
      expect(wait).toBeLessThan(3_000);

      const [delivered] = await settled(db(), hook.id);
      expect(delivered.attempt_log.map((a) => a.status_code)).toEqual([500, 200]);
      const [first, retry] = receiver.deliveries;
      expect(retry.at - first.at).toBeGreaterThanOrEqual(900);
      expect(retry.at).toBeGreaterThanOrEqual(Date.parse(waiting.next_attempt_at!) - 50);
    });

    it('records a delivery whose attempt outlived its expiry as given up, through the dead letter', async () => {
      // No retry, so the one attempt's expiry ends it; the receiver answers after 4 s, pg-boss gives an attempt 2 s.
      await openWebhookQueue(handle(), { ...TIMED, retryLimit: 0 });
      const { hook, receiver } = await hookWithReceiver(db(), ['plan.submitted'], { delayMs: 4_000 });
      closing.push(receiver);
      await submitted(db(), 'Too slow');
      const [delivery] = await settled(db(), hook.id);
      expect(receiver.deliveries).toHaveLength(1);
      // The abandoned attempt recorded nothing of its own: pg-boss had taken it back.
      expect(delivery).toMatchObject({ status: 'failed', attempts: 0, delivered_at: null });
      // pg-boss's reason: the worker's own timeout, or its maintenance sweep when that comes first (a loaded machine).
      expect(delivery.attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: null, error: expect.stringMatching(/^Given up: (handler execution exceeded 2s|job timed out)$/) })]);
    });

    it('brings an existing queue up to the current retry policy', async () => {
      const boss = await openWebhookQueue(handle());
      expect(await boss.getQueue(WEBHOOK_QUEUE)).toMatchObject({ ...WEBHOOK_RETRY_POLICY, deadLetter: DEAD_WEBHOOK_QUEUE });
    });
  });
});
