import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { CreateWebhookRequest, WebhookPayload } from '@/lib/api/webhook-schemas';
import { ToolResource } from '@/lib/registry';
import { decide, submitForReview } from '../approval/approval-service';
import { webhookDeliveries, webhooks } from '../db/schema';
import { testDatabases, useTestDatabase } from '../db/test-databases';
import { createPlan, savePlan } from '../plans/plan-service';
import { putResource } from '../registry/registry-service';
import { FETCH_THEN_SUMMARISE, principal, refusal } from '../test-support';
import { WebhookDispatcher } from './dispatcher';
import { verifySent } from './signature';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks } from './webhook-service';

// The receivers listen on 127.0.0.1, which the address guard refuses unless the operator allows it.
process.env.PLANGATE_DISPATCH_ALLOW = '127.0.0.1';

const chain = FETCH_THEN_SUMMARISE;
const who = principal;
const editor = who('eddie', 'editor');
const approver = who('alice', 'approver');

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 that answers each request with the next status (the last repeats). */
function receiver(statuses: number[]) {
  const received: Received[] = [];
  let server: Server;
  return {
    received,
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    start: () =>
      new Promise<void>((resolve) => {
        server = createServer((request, response) => {
          const chunks: Buffer[] = [];
          request.on('data', (chunk: Buffer) => chunks.push(chunk));
          request.on('end', () => {
            received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
            response.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)];
            response.end('ok');
          });
        }).listen(0, '127.0.0.1', () => resolve());
      }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('webhook configuration', () => {
  it('takes only http(s) URLs without credentials and at least one known event', () => {
    expect(CreateWebhookRequest.safeParse({ url: 'https://hooks.example/x', events: ['plan.approved', 'comment.created'] }).success).toBe(true);
    for (const url of ['ftp://hooks.example/x', 'https://user:pw@hooks.example/x', 'https://user@hooks.example/', 'not a url', 'javascript:alert(1)']) {
      expect(CreateWebhookRequest.safeParse({ url, events: ['plan.approved'] }).success, url).toBe(false);
    }
    expect(CreateWebhookRequest.safeParse({ url: 'https://hooks.example/x', events: [] }).success).toBe(false);
    expect(CreateWebhookRequest.safeParse({ url: 'https://hooks.example/x', events: ['plan.deleted'] }).success).toBe(false);
  });
});

describe.each(testDatabases())('webhooks on $name', (database) => {
  const db = useTestDatabase(database);
  const ok = receiver([200]);
  const failing = receiver([500, 500, 204]);
  beforeAll(async () => {
    await Promise.all([ok.start(), failing.start()]);
  });
  afterAll(async () => {
    await Promise.all([ok.stop(), failing.stop()]);
  });
  afterEach(() => vi.unstubAllEnvs());

  it('sends nothing to an address the operator did not allow, and gives the delivery up at once', async () => {
    vi.stubEnv('PLANGATE_DISPATCH_ALLOW', '');
    const hook = await createWebhook(db(), CreateWebhookRequest.parse({ url: ok.url(), events: ['plan.submitted'] }), 'root');
    const metadata = await createWebhook(db(), CreateWebhookRequest.parse({ url: 'http://169.254.169.254/latest/meta-data/', events: ['plan.submitted'] }), 'root');
    const before = ok.received.length;
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Guarded', plan: chain }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    await new WebhookDispatcher(db(), { backoffMs: [0, 0] }).tick();
    expect(ok.received.length).toBe(before);
    for (const [id, said] of [
      [hook.id, 'Refused: 127.0.0.1 is a loopback address, which Plangate calls only when PLANGATE_DISPATCH_ALLOW lists the host or its network'],
      [metadata.id, 'Refused: 169.254.169.254 is a link-local address, which Plangate calls only when PLANGATE_DISPATCH_ALLOW lists the host or its network'],
    ]) {
      const [delivery] = await listDeliveries(db(), id);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
      expect(delivery.attempt_log).toEqual([expect.objectContaining({ status_code: null, error: said })]);
    }
    await db().delete(webhooks);
  });

  it('queues plan.submitted and plan.approved in the action and sends them signed after it', async () => {
    const hook = await createWebhook(db(), CreateWebhookRequest.parse({ url: ok.url(), events: ['plan.submitted', 'plan.approved', 'approval.stale'] }), 'root');
    expect(hook.secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await listWebhooks(db()))).not.toContain(hook.secret);

    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Hooked', plan: chain }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    await decide(db(), created.id, 'approved', { revision: 1, content_hash: created.content_hash, comment: 'Fine' }, approver);
    const queued = await listDeliveries(db(), hook.id);
    expect(queued.map((d) => [d.event, d.status])).toEqual([
      ['plan.approved', 'pending'],
      ['plan.submitted', 'pending'],
    ]);

    const dispatcher = new WebhookDispatcher(db());
    expect(await dispatcher.tick()).toBe(2);
    expect(ok.received).toHaveLength(2);
    const approved = ok.received.find((r) => r.headers['x-plangate-event'] === 'plan.approved')!;
    const timestamp = String(approved.headers['x-plangate-timestamp']);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const signed = { timestamp, signature: String(approved.headers['x-plangate-signature']) };
    expect(verifySent(hook.secret, signed, approved.body)).toEqual({ ok: true });
    expect(verifySent('whsec_other', signed, approved.body)).toMatchObject({ ok: false });
    const payload = WebhookPayload.parse(JSON.parse(approved.body));
    expect(payload).toMatchObject({
      event: 'plan.approved',
      actor: 'alice',
      plan: { id: created.id, title: 'Hooked', revision: 1, content_hash: created.content_hash, status: 'approved' },
      detail: { comment: 'Fine', approvals: 1 },
    });
    const delivered = await listDeliveries(db(), hook.id);
    expect(delivered.map((d) => d.status)).toEqual(['delivered', 'delivered']);
    expect(delivered.find((d) => d.event === 'plan.approved')!.id).toBe(approved.headers['x-plangate-delivery']);
    expect(delivered[0].attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null })]);

    // A content change voids the approval: approval.stale, naming the revision that did it.
    await savePlan(
      db(),
      created.id,
      SavePlanRequest.parse({ base_revision: 1, plan: { ...chain, planned_tasks: [chain.planned_tasks![0]] } }),
      editor.username,
    );
    expect(await dispatcher.tick()).toBe(1);
    const stale = WebhookPayload.parse(JSON.parse(ok.received[2].body));
    expect(stale).toMatchObject({ event: 'approval.stale', plan: { revision: 2, status: 'draft' }, detail: { reason: 'revision', by_revision: 2 } });

    await deleteWebhook(db(), hook.id, 'root');
    expect((await refusal(listDeliveries(db(), hook.id))).status).toBe(404);
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id))).toEqual([]);
  });

  it('retries a failing receiver with backoff, records every attempt, and never fails the action', async () => {
    const hook = await createWebhook(db(), CreateWebhookRequest.parse({ url: failing.url(), events: ['plan.submitted'] }), 'root');
    const down = await createWebhook(db(), CreateWebhookRequest.parse({ url: 'http://127.0.0.1:9/nothing', events: ['plan.submitted'] }), 'root');
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Retried', plan: chain }), editor.username);
    await expect(submitForReview(db(), created.id, {}, editor)).resolves.toMatchObject({ status: 'in_review' });

    const dispatcher = new WebhookDispatcher(db(), { backoffMs: [0, 0] });
    await dispatcher.tick();
    let [delivery] = await listDeliveries(db(), hook.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(delivery.attempt_log[0]).toMatchObject({ status_code: 500, error: 'HTTP 500' });
    await dispatcher.tick();
    await dispatcher.tick();
    [delivery] = await listDeliveries(db(), hook.id);
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempt_log.map((a) => a.status_code)).toEqual([500, 500, 204]);
    expect(failing.received).toHaveLength(3);
    // The same delivery, body and id on every attempt.
    expect(new Set(failing.received.map((r) => r.headers['x-plangate-delivery'])).size).toBe(1);
    expect(new Set(failing.received.map((r) => r.body)).size).toBe(1);

    // Nothing listens on the other: given up after the last attempt, each one's error recorded.
    const [gaveUp] = await listDeliveries(db(), down.id);
    expect(gaveUp.status).toBe('failed');
    expect(gaveUp.attempts).toBe(3);
    expect(gaveUp.attempt_log.every((a) => a.status_code === null && a.error)).toBe(true);
    expect(await dispatcher.tick()).toBe(0);
    await db().delete(webhooks);
  });

  it('sends approval.stale when a registry change voids an approval, naming the resources', async () => {
    const hook = await createWebhook(db(), CreateWebhookRequest.parse({ url: ok.url(), events: ['approval.stale'] }), 'root');
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Bound', plan: chain }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    await decide(db(), created.id, 'approved', { revision: 1, content_hash: created.content_hash, comment: '' }, approver);
    await putResource(db(), 'tools', 'http_get', ToolResource.parse({ id: 'http_get', description: 'GET a URL, now different' }), 'mallory');
    const [delivery] = await listDeliveries(db(), hook.id);
    const payload = WebhookPayload.parse(JSON.parse((await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id)))[0].body));
    expect(payload).toMatchObject({
      event: 'approval.stale',
      actor: 'mallory',
      plan: { id: created.id, revision: 1, status: 'draft' },
      detail: { reason: 'registry_changed', reviews: [{ reviewer: 'alice', revision: 1 }], resources: [{ kind: 'tools', key: 'http_get' }] },
    });
    await db().delete(webhooks);
  });

  it('lets several dispatchers share the due deliveries, sending each once', async () => {
    const hooks = await Promise.all(
      [0, 1, 2, 3].map(() => createWebhook(db(), CreateWebhookRequest.parse({ url: ok.url(), events: ['plan.submitted'] }), 'root')),
    );
    const before = ok.received.length;
    for (const title of ['One', 'Two', 'Three']) {
      const created = await createPlan(db(), CreatePlanRequest.parse({ title, plan: chain }), editor.username);
      await submitForReview(db(), created.id, {}, editor);
    }
    const instances = [0, 1, 2].map(() => new WebhookDispatcher(db()));
    const sent = await Promise.all([...instances, ...instances].map((d) => d.tick()));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(12);
    const ids = ok.received.slice(before).map((r) => r.headers['x-plangate-delivery']);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    for (const hook of hooks) expect((await listDeliveries(db(), hook.id)).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
    await db().delete(webhooks);
  });

  it('waits out the backoff before retrying', async () => {
    const hook = await createWebhook(db(), CreateWebhookRequest.parse({ url: 'http://127.0.0.1:9/nothing', events: ['plan.submitted'] }), 'root');
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Backoff', plan: chain }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    const dispatcher = new WebhookDispatcher(db());
    expect(await dispatcher.tick()).toBe(1);
    expect(await dispatcher.tick()).toBe(0);
    const [delivery] = await listDeliveries(db(), hook.id);
    const wait = Date.parse(delivery.next_attempt_at!) - Date.parse(delivery.attempt_log[0].at);
    expect(wait).toBeGreaterThan(900);
    expect(wait).toBeLessThan(5_000);
    await dispatcher.stop();
    await db().delete(webhooks);
  });
});
