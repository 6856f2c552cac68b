import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RESOURCE_SCHEMAS } from '@/lib/registry';
import { MAX_OUTPUT_BYTES } from './dispatch-types';
import { testDispatchRequest, unreachableUrl } from './dispatch-test-support';
import { resultSigningString, signatureMatches, timestampProblem } from '../../webhooks/signature';
import { dispatchWebhook } from './webhook-dispatch';
import { startWebhookReceiver, type WebhookReceiver } from '@/scripts/test-servers/webhook-receiver-test-support';

// The receivers listen on 127.0.0.1, which the address guard refuses unless the operator allows it.
process.env.PLANGATE_DISPATCH_ALLOW = '127.0.0.1';
process.env.PLANGATE_DISPATCH_SECRETS = 'TEST_HOOK_SECRET';

const SECRET = 'hook-secret-for-tests';
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver(SECRET);
});
afterAll(() => receiver.close());
afterEach(() => {
  Object.assign(receiver.behaviour, { mode: 'respond', failFirst: 0, delayMs: 0, status: undefined, bigBytes: undefined });
  vi.unstubAllEnvs();
});

const workflow = RESOURCE_SCHEMAS.dsl_workflows.parse({ id: 'etl' });
const endpoint = () => ({ protocol: 'webhook' as const, url: receiver.url, secret_env: 'TEST_HOOK_SECRET' });

describe('webhook dispatch against a real receiver', () => {
  it('posts the signed task and returns the JSON answer; the receiver sees the idempotency key', async () => {
    vi.stubEnv('TEST_HOOK_SECRET', SECRET);
    const request = testDispatchRequest({ kind: 'dsl', resource: workflow, input: { rows: [1, 2] }, runId: 'run-hook' });
    const outcome = await dispatchWebhook(request, endpoint());
    expect(outcome).toEqual({ state: 'succeeded', output: { task_id: 'task-1', echo: { rows: [1, 2] } } });
    const delivery = receiver.deliveries.at(-1)!;
    expect(delivery).toMatchObject({ verified: true, idempotencyKey: 'run-hook:task-1:1', attempt: '1.1' });
    expect(delivery.body).toMatchObject({ run_id: 'run-hook', task_id: 'task-1', generation: 1, attempt: 1, input: { rows: [1, 2] }, result_url: request.resultUrl });
    expect(delivery.body.task.instructions).toBe('Do the thing.');
  });

  it("is accepted on 202, with generation and attempt in X-Plangate-Attempt; the executor's later post back is signed over path, attempt, timestamp and body", async () => {
    vi.stubEnv('TEST_HOOK_SECRET', SECRET);
    const posted: { matches: boolean; fresh: boolean }[] = [];
    const resultServer = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        // Plangate's own recipe, checked against the receiver's independent HMAC code.
        const header = (name: string) => String(req.headers[name] ?? '');
        const signed = resultSigningString({
          method: req.method!,
          path: new URL(req.url!, 'http://x').pathname,
          attempt: header('x-plangate-attempt'),
          timestamp: header('x-plangate-timestamp'),
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const entry = { matches: signatureMatches(SECRET, signed, header('x-plangate-signature')), fresh: timestampProblem(header('x-plangate-timestamp')) === null };
        posted.push(entry);
        res.writeHead(entry.matches && entry.fresh ? 200 : 401).end();
      });
    });
    await new Promise<void>((resolve) => resultServer.listen(0, '127.0.0.1', resolve));
    try {
      const resultUrl = `http://127.0.0.1:${(resultServer.address() as AddressInfo).port}/api/runs/run-1/tasks/late/result`;
      receiver.behaviour.mode = 'accept';
      const outcome = await dispatchWebhook(testDispatchRequest({ task: { task_id: 'late' }, resultUrl, generation: 2, attempt: 3 }), endpoint());
      expect(outcome).toEqual({ state: 'accepted' });
      expect(receiver.deliveries.at(-1)!.attempt).toBe('2.3');
      expect(await receiver.postResult('late', { state: 'succeeded', output: { done: true } })).toMatchObject({ status: 200 });
      expect(await receiver.postResult('late', { state: 'succeeded', output: { done: true } }, { timestampSeconds: Math.floor(Date.now() / 1000) - 600 })).toMatchObject({ status: 401 });
      expect(posted).toEqual([
        { matches: true, fresh: true },
        { matches: true, fresh: false },
      ]);
    } finally {
      await new Promise<void>((resolve) => resultServer.close(() => resolve()));
    }
  });

  it('fails retryably on 5xx and the retry carries its own attempt key', async () => {
    vi.stubEnv('TEST_HOOK_SECRET', SECRET);
    receiver.behaviour.failFirst = 1;
    await expect(dispatchWebhook(testDispatchRequest({ runId: 'run-5xx' }), endpoint())).rejects.toMatchObject({
      retryable: true,
      // Said by status alone: the body of an error answer is never copied into the task's error.
      message: `Webhook ${receiver.url} answered HTTP 500`,
    });
    await expect(dispatchWebhook(testDispatchRequest({ runId: 'run-5xx', attempt: 2 }), endpoint())).resolves.toMatchObject({ state: 'succeeded' });
    expect([receiver.countFor('run-5xx:task-1:1'), receiver.countFor('run-5xx:task-1:2')]).toEqual([1, 1]);
  });

  it('fails without retrying on 4xx, and when the receiver refuses the signature', async () => {
    vi.stubEnv('TEST_HOOK_SECRET', SECRET);
    receiver.behaviour.status = 422;
    const refused = dispatchWebhook(testDispatchRequest(), endpoint());
    await expect(refused).rejects.toMatchObject({ retryable: false, message: `Webhook ${receiver.url} answered HTTP 422` });
    receiver.behaviour.status = undefined;
    vi.stubEnv('TEST_HOOK_SECRET', 'not-the-receivers-secret');
    await expect(dispatchWebhook(testDispatchRequest(), endpoint())).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('HTTP 401') });
    expect(receiver.deliveries.at(-1)!.verified).toBe(false);
  });

  it('fails without retrying when the secret variable is unset, sending nothing', async () => {
    vi.stubEnv('TEST_HOOK_SECRET', '');
    const before = receiver.deliveries.length;
    await expect(dispatchWebhook(testDispatchRequest(), endpoint())).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('TEST_HOOK_SECRET') });
    expect(receiver.deliveries.length).toBe(before);
  });

  it('follows no redirect: a 3xx is a failure that is not retried, and its target is never called', async () => {
    vi.stubEnv('TEST_HOOK_SECRET', SECRET);
    const target = await startWebhookReceiver(SECRET);
    const redirecting = createServer((_req, res) => res.writeHead(307, { location: target.url }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`;
      await expect(dispatchWebhook(testDispatchRequest(), { ...endpoint(), url })).rejects.toMatchObject({
        retryable: false,
        message: expect.stringContaining('answered with a redirect (HTTP 307), and Plangate follows no redirects'),
      });
      expect(target.deliveries).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
      await target.close();
    }
  });

  it('gives up at the deadline and refuses an over-size answer', async () => {
    vi.stubEnv('TEST_HOOK_SECRET', SECRET);
    receiver.behaviour.delayMs = 2000;
    await expect(dispatchWebhook(testDispatchRequest({ task: { parameters: { timeout_seconds: 0.2 } } }), endpoint())).rejects.toMatchObject({
      retryable: true,
      message: `${receiver.url} did not answer within 0.2 s`,
    });
    receiver.behaviour.delayMs = 0;
    receiver.behaviour.bigBytes = MAX_OUTPUT_BYTES + 1;
    await expect(dispatchWebhook(testDispatchRequest(), endpoint())).rejects.toMatchObject({ retryable: false, message: expect.stringContaining(`${MAX_OUTPUT_BYTES} bytes`) });
  });

  it('fails retryably when nothing listens', async () => {
    vi.stubEnv('TEST_HOOK_SECRET', SECRET);
    const url = await unreachableUrl('/hook');
    // The socket's own error (ECONNREFUSED, a reset) is not said: it would map which ports are open.
    await expect(dispatchWebhook(testDispatchRequest(), { ...endpoint(), url })).rejects.toMatchObject({ retryable: true, message: `Could not reach ${url}` });
  });
});
