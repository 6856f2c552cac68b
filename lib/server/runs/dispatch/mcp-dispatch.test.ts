import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RESOURCE_SCHEMAS } from '@/lib/registry';
import { MAX_OUTPUT_BYTES } from './dispatch-types';
import { dispatchMcp } from './mcp-dispatch';
import { guardedFetch } from './address-guard';
import { closeMcpSessions, withMcpSession } from './mcp-sessions';
import { testDispatchRequest, unreachableUrl } from './dispatch-test-support';
import { startMcpTestServer, type McpTestServer } from '@/scripts/test-servers/mcp-server-test-support';

// The servers listen on 127.0.0.1, which the address guard refuses unless the operator allows it.
process.env.PLANGATE_DISPATCH_ALLOW = '127.0.0.1';
process.env.PLANGATE_DISPATCH_SECRETS = 'TEST_MCP_TOKEN';

let server: McpTestServer;
beforeAll(async () => {
  server = await startMcpTestServer();
});
afterAll(async () => {
  await closeMcpSessions();
  await server.close();
});

const tool = (id: string) => RESOURCE_SCHEMAS.tools.parse({ id });

describe('MCP dispatch against a real MCP server', () => {
  it('calls the tool named by the resource id with the input as arguments, and carries the idempotency key', async () => {
    const request = testDispatchRequest({ resource: tool('echo'), input: { city: 'Lyon', days: 3 }, runId: 'run-echo' });
    const outcome = await dispatchMcp(request, { protocol: 'mcp', url: server.url });
    expect(outcome).toEqual({ state: 'succeeded', output: { city: 'Lyon', days: 3 } });
    expect(server.callCount('echo', 'run-echo:task-1:1')).toBe(1);
  });

  it('returns structured content when the tool gives it, calling the tool the endpoint names', async () => {
    const outcome = await dispatchMcp(testDispatchRequest({ resource: tool('calculator'), input: { a: 2, b: 40 } }), { protocol: 'mcp', url: server.url, tool: 'add' });
    expect(outcome).toEqual({ state: 'succeeded', output: { sum: 42 } });
  });

  it('returns plain text when the answer is not JSON', async () => {
    const outcome = await dispatchMcp(testDispatchRequest({ resource: tool('slow'), input: { ms: 1 } }), { protocol: 'mcp', url: server.url });
    expect(outcome).toEqual({ state: 'succeeded', output: 'done after 1 ms' });
  });

  it('fails without retrying when the tool reports an error, with its text', async () => {
    const call = dispatchMcp(testDispatchRequest({ resource: tool('fail') }), { protocol: 'mcp', url: server.url });
    await expect(call).rejects.toMatchObject({ name: 'DispatchError', retryable: false, message: expect.stringContaining('the tool failed on purpose') });
  });

  it('fails without retrying when the arguments do not fit the tool', async () => {
    const call = dispatchMcp(testDispatchRequest({ resource: tool('add'), input: { a: 'two' } }), { protocol: 'mcp', url: server.url });
    await expect(call).rejects.toMatchObject({ retryable: false });
  });

  it('gives up at the task deadline, retryably, naming the endpoint', async () => {
    const request = testDispatchRequest({ resource: tool('slow'), input: { ms: 5000 }, task: { parameters: { timeout_seconds: 0.3 } } });
    const started = Date.now();
    await expect(dispatchMcp(request, { protocol: 'mcp', url: server.url })).rejects.toMatchObject({
      retryable: true,
      message: `${server.url} did not answer within 0.3 s`,
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops when the run aborts the call', async () => {
    const controller = new AbortController();
    const call = dispatchMcp(testDispatchRequest({ resource: tool('slow'), input: { ms: 5000 }, signal: controller.signal }), { protocol: 'mcp', url: server.url });
    setTimeout(() => controller.abort(new Error('run cancelled')), 100);
    await expect(call).rejects.toMatchObject({ message: expect.stringContaining('was aborted: run cancelled') });
  });

  it('refuses an answer over the output cap without retrying', async () => {
    const call = dispatchMcp(testDispatchRequest({ resource: tool('big'), input: { bytes: MAX_OUTPUT_BYTES + 10 } }), { protocol: 'mcp', url: server.url });
    await expect(call).rejects.toMatchObject({ retryable: false, message: expect.stringContaining(`more than ${MAX_OUTPUT_BYTES} bytes`) });
  });

  it('fails retryably when nothing listens at the endpoint', async () => {
    const url = await unreachableUrl('/mcp');
    await expect(dispatchMcp(testDispatchRequest({ resource: tool('echo') }), { protocol: 'mcp', url })).rejects.toMatchObject({
      retryable: true,
      // Not the socket's own error (ECONNREFUSED): that would map which ports are open.
      message: `Could not reach ${url}`,
    });
  });

  it('sends the bearer token from the named environment variable, and fails without retrying when it is unset', async () => {
    const guarded = await startMcpTestServer({ token: 's3cret' });
    try {
      vi.stubEnv('TEST_MCP_TOKEN', 's3cret');
      const outcome = await dispatchMcp(testDispatchRequest({ resource: tool('echo'), input: { ok: true } }), { protocol: 'mcp', url: guarded.url, token_env: 'TEST_MCP_TOKEN' });
      expect(outcome).toEqual({ state: 'succeeded', output: { ok: true } });
      vi.stubEnv('TEST_MCP_TOKEN', 'wrong');
      await expect(dispatchMcp(testDispatchRequest({ resource: tool('echo') }), { protocol: 'mcp', url: guarded.url, token_env: 'TEST_MCP_TOKEN' })).rejects.toMatchObject({
        retryable: false,
        message: `MCP server ${guarded.url} answered HTTP 401`,
      });
      vi.stubEnv('TEST_MCP_TOKEN', '');
      await expect(dispatchMcp(testDispatchRequest({ resource: tool('echo') }), { protocol: 'mcp', url: guarded.url, token_env: 'TEST_MCP_TOKEN' })).rejects.toMatchObject({
        retryable: false,
        message: expect.stringContaining('TEST_MCP_TOKEN'),
      });
    } finally {
      vi.unstubAllEnvs();
      await guarded.close();
    }
  });

  it('sends the token with every message of a kept session, also those outside a call (a cancellation, the close)', async () => {
    const guarded = await startMcpTestServer({ token: 's3cret' });
    try {
      const client = await withMcpSession(guarded.url, 'Bearer s3cret', guardedFetch, { signal: new AbortController().signal, timeout: 5_000 }, async (c) => c);
      // What the SDK sends on its own once a request timed out: outside any call's fetch.
      await client.notification({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'timed out' } });
      await closeMcpSessions();
      expect(guarded.unauthorized()).toBe(0);
    } finally {
      await guarded.close();
    }
  });

  it('keeps one session per server for many calls, concurrent ones included', async () => {
    const own = await startMcpTestServer();
    try {
      const call = (i: number) => dispatchMcp(testDispatchRequest({ resource: tool('add'), input: { a: i, b: 1 }, attempt: i }), { protocol: 'mcp', url: own.url });
      expect(await call(1)).toEqual({ state: 'succeeded', output: { sum: 2 } });
      const outcomes = await Promise.all([2, 3, 4, 5].map(call));
      expect(outcomes.map((outcome) => outcome.state === 'succeeded' && outcome.output)).toEqual([{ sum: 3 }, { sum: 4 }, { sum: 5 }, { sum: 6 }]);
      expect(own.callCount('add')).toBe(5);
      expect(own.sessionsOpened()).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('opens a new session when the kept one fails at the transport', async () => {
    const first = await startMcpTestServer();
    const url = first.url;
    await dispatchMcp(testDispatchRequest({ resource: tool('echo') }), { protocol: 'mcp', url });
    await first.close();
    await expect(dispatchMcp(testDispatchRequest({ resource: tool('echo') }), { protocol: 'mcp', url })).rejects.toMatchObject({ retryable: true });
    const port = Number(new URL(url).port);
    const second = await startMcpTestServer({ port });
    try {
      expect(await dispatchMcp(testDispatchRequest({ resource: tool('echo'), input: { back: true } }), { protocol: 'mcp', url })).toEqual({ state: 'succeeded', output: { back: true } });
      expect(second.sessionsOpened()).toBe(1);
    } finally {
      await second.close();
    }
  });
});
