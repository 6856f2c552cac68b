import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RESOURCE_SCHEMAS, type Resource } from '@/lib/registry';
import { dispatch, dispatcherFor } from './dispatch';
import { closeMcpSessions } from './mcp-sessions';
import { testDispatchRequest } from './dispatch-test-support';
import { startA2aTestAgent, type A2aTestAgent } from './test-servers/a2a-agent-test-support';
import { startMcpTestServer, type McpTestServer } from './test-servers/mcp-server-test-support';
import { startOpenAiTestServer, type OpenAiTestServer } from './test-servers/openai-server-test-support';
import { startWebhookReceiver, type WebhookReceiver } from './test-servers/webhook-receiver-test-support';

let mcp: McpTestServer;
let agent: A2aTestAgent;
let llm: OpenAiTestServer;
let hook: WebhookReceiver;
beforeAll(async () => {
  [mcp, agent, llm, hook] = await Promise.all([startMcpTestServer(), startA2aTestAgent(), startOpenAiTestServer(), startWebhookReceiver('dispatch-secret')]);
});
afterAll(() => Promise.all([closeMcpSessions(), mcp.close(), agent.close(), llm.close(), hook.close()]));
afterEach(() => vi.unstubAllEnvs());

describe('dispatch picks the protocol from the resource endpoint', () => {
  it('runs one task of each kind through its own protocol', async () => {
    vi.stubEnv('DISPATCH_HOOK_SECRET', 'dispatch-secret');
    const tool = RESOURCE_SCHEMAS.tools.parse({ id: 'add', endpoint: { protocol: 'mcp', url: mcp.url } });
    const writer = RESOURCE_SCHEMAS.agents.parse({ id: 'writer', endpoint: { protocol: 'a2a', url: agent.url } });
    const model = RESOURCE_SCHEMAS.llms.parse({ name: 'm', endpoint: { protocol: 'openai', url: llm.url } });
    const workflow = RESOURCE_SCHEMAS.dsl_workflows.parse({ id: 'etl', endpoint: { protocol: 'webhook', url: hook.url, secret_env: 'DISPATCH_HOOK_SECRET' } });

    expect(await dispatch(testDispatchRequest({ kind: 'tool', resource: tool, input: { a: 1, b: 2 } }))).toEqual({ state: 'succeeded', output: { sum: 3 } });
    expect(await dispatch(testDispatchRequest({ kind: 'agent', resource: writer, input: { x: 1 } }))).toMatchObject({ state: 'succeeded', output: { echo: { x: 1 } } });
    expect(await dispatch(testDispatchRequest({ kind: 'llm', resource: model, input: 'hi' }))).toEqual({ state: 'succeeded', output: 'echo: "hi"' });
    expect(await dispatch(testDispatchRequest({ kind: 'dsl', resource: workflow, input: { y: 2 } }))).toMatchObject({ state: 'succeeded', output: { echo: { y: 2 } } });
  });

  it('runs an LLM task without an endpoint on the configured LLM', async () => {
    vi.stubEnv('LLM_BASE_URL', llm.url);
    vi.stubEnv('LLM_MODEL', 'configured-model');
    const model = RESOURCE_SCHEMAS.llms.parse({ name: 'gpt-x' });
    expect(await dispatch(testDispatchRequest({ kind: 'llm', resource: model, input: 1 }))).toEqual({ state: 'succeeded', output: 'echo: 1' });
    expect(await dispatch(testDispatchRequest({ kind: 'llm', resource: null, input: 2 }))).toEqual({ state: 'succeeded', output: 'echo: 2' });
    expect(llm.calls.at(-1)!.body.model).toBe('configured-model');
  });

  it('fails without retrying when the resource has no endpoint, or there is no resource', async () => {
    const tool = RESOURCE_SCHEMAS.tools.parse({ id: 'search' });
    await expect(dispatcherFor('tool', tool)(testDispatchRequest({ resource: tool }))).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('Resource search has no endpoint') });
    await expect(dispatch(testDispatchRequest({ kind: 'agent', resource: null }))).rejects.toMatchObject({ retryable: false, message: 'The agent task names no resource to run on' });
  });

  it('refuses an endpoint whose protocol the task kind does not use', async () => {
    const stray = { id: 'odd', name: '', description: '', traits: [], endpoint: { protocol: 'mcp', url: mcp.url } } as Resource;
    await expect(dispatch(testDispatchRequest({ kind: 'agent', resource: stray }))).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('agent tasks run through a2a or webhook') });
    expect(mcp.calls).toHaveLength(1);
  });

  it('fails retryably, naming the endpoint, when the answer is not the protocol', async () => {
    const garbage = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"half": '));
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/`;
    try {
      const tool = RESOURCE_SCHEMAS.tools.parse({ id: 'echo', endpoint: { protocol: 'mcp', url } });
      const writer = RESOURCE_SCHEMAS.agents.parse({ id: 'writer', endpoint: { protocol: 'a2a', url } });
      await expect(dispatch(testDispatchRequest({ kind: 'tool', resource: tool }))).rejects.toMatchObject({ retryable: true, message: expect.stringContaining(url) });
      await expect(dispatch(testDispatchRequest({ kind: 'agent', resource: writer }))).rejects.toMatchObject({ retryable: true, message: expect.stringContaining(url) });
    } finally {
      await new Promise<void>((resolve) => garbage.close(() => resolve()));
    }
  });
});
