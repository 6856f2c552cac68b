import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { adminHeaders, signIn } from './auth-support';

// Outgoing webhooks against a real server: a real HTTP receiver in the test gets the event
// signed with the secret shown once at creation, and a receiver that fails is retried
// while the approval that caused the event succeeds regardless.

const plan = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'shipments_list' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on a free port of 127.0.0.1 answering each request with the next status (the last repeats). */
async function receiver(statuses: number[]) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ at: Date.now(), headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)];
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/plangate`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The receiver's side of the signature: HMAC-SHA256 of "<timestamp>.<body>", hex, constant-time compare. */
function validSignature(secret: string, received: Received): boolean {
  const timestamp = String(received.headers['x-plangate-timestamp']);
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${received.body}`).digest('hex')}`);
  const given = Buffer.from(String(received.headers['x-plangate-signature'] ?? ''));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * An approver, signed in through the page, with a token of their own. The demo's approver2:
 * the plans here are written with the admin token, and an account the admin token created
 * would count as its author under four-eyes (a sock puppet) and be refused.
 */
async function approverApi(browser: Browser, baseURL: string, playwright: { request: { newContext: (o: object) => Promise<APIRequestContext> } }) {
  const username = 'approver2';
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, username);
  const minted = await page.request.post('/api/tokens', { data: { label: 'webhooks e2e' } });
  expect(minted.status()).toBe(201);
  const { token } = await minted.json();
  await context.close();
  return { username, api: await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${token}` } }) };
}

async function planInReview(admin: APIRequestContext, title: string) {
  const created = await admin.post('/api/plans', { data: { title, plan } });
  expect(created.status()).toBe(201);
  const { id, content_hash } = await created.json();
  expect((await admin.post(`/api/plans/${id}/submit`)).status()).toBe(200);
  return { id, content_hash };
}

test('a receiver gets plan.approved signed with the secret shown once, and a failing one is retried without failing the approval', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(90_000);
  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: adminHeaders });
  const good = await receiver([204]);
  const flaky = await receiver([500, 200]);
  const hookIds: string[] = [];
  try {
    // Only http(s), never credentials in the URL.
    for (const url of ['ftp://127.0.0.1/x', 'http://user:secret@127.0.0.1/x']) {
      const refused = await admin.post('/api/webhooks', { data: { url, events: ['plan.approved'] } });
      expect(refused.status(), url).toBe(400);
    }

    const created = await admin.post('/api/webhooks', { data: { url: good.url, events: ['plan.approved'] } });
    expect(created.status()).toBe(201);
    const hook = await created.json();
    hookIds.push(hook.id);
    expect(hook).toMatchObject({ url: good.url, events: ['plan.approved'], secret: expect.stringMatching(/^whsec_/) });
    const listed = await (await admin.get('/api/webhooks')).text();
    expect(listed).toContain(hook.id);
    expect(listed).not.toContain(hook.secret);

    const approver = await approverApi(browser, baseURL!, playwright);
    const target = await planInReview(admin, 'Webhook target');
    const approved = await approver.api.post(`/api/plans/${target.id}/approve`, { data: { revision: 1, content_hash: target.content_hash, comment: 'Ship it' } });
    expect(approved.status()).toBe(200);
    expect((await approved.json()).status).toBe('approved');

    await expect.poll(() => good.received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const [delivery] = good.received;
    expect(delivery.headers['x-plangate-event']).toBe('plan.approved');
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(validSignature(hook.secret, delivery)).toBe(true);
    expect(validSignature('whsec_not-the-secret', delivery)).toBe(false);
    expect(Math.abs(Number(delivery.headers['x-plangate-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(JSON.parse(delivery.body)).toMatchObject({
      event: 'plan.approved',
      actor: approver.username,
      plan: { id: target.id, title: 'Webhook target', revision: 1, content_hash: target.content_hash, status: 'approved' },
      detail: { comment: 'Ship it' },
    });
    await expect
      .poll(async () => (await (await admin.get(`/api/webhooks/${hook.id}/deliveries`)).json()).deliveries[0]?.status, { timeout: 10_000 })
      .toBe('delivered');
    const [logged] = (await (await admin.get(`/api/webhooks/${hook.id}/deliveries`)).json()).deliveries;
    expect(logged).toMatchObject({ id: delivery.headers['x-plangate-delivery'], event: 'plan.approved', plan_id: target.id, attempts: 1 });
    expect(logged.attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: 204, error: null })]);

    // A receiver answering 500: the approval still succeeds, and the delivery is tried again.
    const flakyHook = await (await admin.post('/api/webhooks', { data: { url: flaky.url, events: ['plan.approved', 'plan.rejected'] } })).json();
    hookIds.push(flakyHook.id);
    const second = await planInReview(admin, 'Webhook retry target');
    const started = Date.now();
    const decided = await approver.api.post(`/api/plans/${second.id}/approve`, { data: { revision: 1, content_hash: second.content_hash } });
    expect(decided.status()).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect.poll(() => flaky.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const [first, retry] = flaky.received;
    expect(retry.headers['x-plangate-delivery']).toBe(first.headers['x-plangate-delivery']);
    expect(retry.body).toBe(first.body);
    expect(retry.at - first.at).toBeGreaterThanOrEqual(900);
    expect(validSignature(flakyHook.secret, retry)).toBe(true);
    await expect
      .poll(async () => (await (await admin.get(`/api/webhooks/${flakyHook.id}/deliveries`)).json()).deliveries[0]?.status, { timeout: 10_000 })
      .toBe('delivered');
    const [retried] = (await (await admin.get(`/api/webhooks/${flakyHook.id}/deliveries`)).json()).deliveries;
    expect(retried.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
    expect((await (await admin.get(`/api/plans/${second.id}`)).json()).status).toBe('approved');
    await approver.api.dispose();
  } finally {
    for (const id of hookIds) await admin.delete(`/api/webhooks/${id}`);
    await Promise.all([good.close(), flaky.close()]);
    await admin.dispose();
  }
});

test('an admin adds a webhook on /admin/webhooks, sees its secret once, and reads its delivery log', async ({ browser, baseURL, playwright }) => {
  const admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: adminHeaders });
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const url = `http://127.0.0.1:9/page-${Date.now().toString(36)}`;
  try {
    await signIn(page, 'admin');
    await page.goto('/admin/webhooks');
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await page.getByRole('textbox', { name: 'URL' }).fill(url);
    await page.getByRole('checkbox', { name: /plan\.submitted/ }).uncheck();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = page.getByRole('textbox', { name: 'Signing secret' });
    await expect(secret).toHaveValue(/^whsec_/);
    const item = page.getByRole('listitem').filter({ hasText: url });
    await expect(item).toContainText('plan.approved');
    await expect(item).not.toContainText('plan.submitted');
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Signing secret' })).toHaveCount(0);
    // By its heading: other tests approving plans meanwhile may give it deliveries, whose log names the URL too.
    await expect(page.getByRole('heading', { name: url })).toBeVisible();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Delete webhook ${url}` }).click();
    await expect(page.getByRole('heading', { name: url })).toHaveCount(0);
  } finally {
    const { webhooks } = await (await admin.get('/api/webhooks')).json();
    for (const hook of webhooks.filter((h: { url: string }) => h.url === url)) await admin.delete(`/api/webhooks/${hook.id}`);
    await context.close();
    await admin.dispose();
  }
});
