import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RESOURCE_SCHEMAS, type Resource } from '@/lib/registry';
import { dispatch, dispatcherFor } from './dispatch';
import { closeMcpSessions } from './mcp-sessions';
import { testDispatchRequest } from './dispatch-test-support';
import { startA2aTestAgent, type A2aTestAgent } from '@/scripts/test-servers/a2a-agent-test-support';
import { startMcpTestServer, type McpTestServer } from '@/scripts/test-servers/mcp-server-test-support';
import { startOpenAiTestServer, type OpenAiTestServer } from '@/scripts/test-servers/openai-server-test-support';
import { startWebhookReceiver, type WebhookReceiver } from '@/scripts/test-servers/webhook-receiver-test-support';

// The test servers listen on 127.0.0.1, which the address guard refuses unless the operator
// allows it; each test that needs otherwise stubs the variables and afterEach restores these.
process.env.PLANGATE_DISPATCH_ALLOW = '127.0.0.1';
process.env.PLANGATE_DISPATCH_SECRETS = 'DISPATCH_HOOK_SECRET';

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

/** One resource of each protocol, reaching the test servers (or `url` for all), with `secret` in each `_env` field. */
function everyProtocol(options: { url?: string; secret?: string } = {}) {
  const { url, secret } = options;
  return [
    { kind: 'tool' as const, resource: RESOURCE_SCHEMAS.tools.parse({ id: 'echo', endpoint: { protocol: 'mcp', url: url ?? mcp.url, ...(secret ? { token_env: secret } : {}) } }) },
    { kind: 'agent' as const, resource: RESOURCE_SCHEMAS.agents.parse({ id: 'writer', endpoint: { protocol: 'a2a', url: url ?? agent.url, ...(secret ? { token_env: secret } : {}) } }) },
    { kind: 'llm' as const, resource: RESOURCE_SCHEMAS.llms.parse({ name: 'm', endpoint: { protocol: 'openai', url: url ?? llm.url, ...(secret ? { api_key_env: secret } : {}) } }) },
    { kind: 'dsl' as const, resource: RESOURCE_SCHEMAS.dsl_workflows.parse({ id: 'etl', endpoint: { protocol: 'webhook', url: url ?? hook.url, secret_env: secret ?? 'DISPATCH_HOOK_SECRET' } }) },
  ];
}

/** How many requests of any kind the four test servers have seen. */
const received = () => mcp.calls.length + agent.messages.length + llm.calls.length + hook.deliveries.length;

describe('dispatch sends only the secrets the operator listed', () => {
  it("refuses Plangate's own secrets for every protocol even when listed, without calling", async () => {
    vi.stubEnv('BETTER_AUTH_SECRET', 'the-session-signing-key');
    vi.stubEnv('PLANGATE_DISPATCH_SECRETS', 'BETTER_AUTH_SECRET,PLANGATE_ADMIN_TOKEN,DISPATCH_HOOK_SECRET');
    vi.stubEnv('DISPATCH_HOOK_SECRET', 'dispatch-secret');
    const before = received();
    for (const { kind, resource } of everyProtocol({ secret: 'BETTER_AUTH_SECRET' })) {
      const refused = dispatch(testDispatchRequest({ kind, resource, input: { a: 1, b: 2 } }));
      await expect(refused, kind).rejects.toMatchObject({ name: 'DispatchError', retryable: false, message: expect.stringContaining("BETTER_AUTH_SECRET is one of Plangate's own secrets") });
    }
    expect(received()).toBe(before);
  });

  it('refuses an unlisted variable for every protocol with the same words whether or not it is set', async () => {
    const before = received();
    const messages = async () => {
      const said: string[] = [];
      for (const { kind, resource } of everyProtocol({ secret: 'SOME_OTHER_SECRET' })) {
        const error = await dispatch(testDispatchRequest({ kind, resource, input: {} })).then(
          () => null,
          (caught: unknown) => caught,
        );
        expect(error, kind).toMatchObject({ retryable: false, message: expect.stringContaining('SOME_OTHER_SECRET, which is not a usable secret') });
        said.push((error as Error).message);
      }
      return said;
    };
    const unset = await messages();
    vi.stubEnv('SOME_OTHER_SECRET', 'a value the server happens to have');
    expect(await messages()).toEqual(unset);
    expect(received()).toBe(before);
  });
});

describe('dispatch reaches no address the operator did not allow', () => {
  it('refuses the loopback test servers for every protocol without PLANGATE_DISPATCH_ALLOW, and calls nothing', async () => {
    vi.stubEnv('PLANGATE_DISPATCH_ALLOW', '');
    vi.stubEnv('DISPATCH_HOOK_SECRET', 'dispatch-secret');
    const before = received();
    for (const { kind, resource } of everyProtocol()) {
      await expect(dispatch(testDispatchRequest({ kind, resource, input: { a: 1, b: 2 } })), kind).rejects.toMatchObject({
        retryable: false,
        message: expect.stringMatching(/^Plangate did not call http:\/\/127\.0\.0\.1:\d+\/\S*: 127\.0\.0\.1 is a loopback address, which Plangate calls only when PLANGATE_DISPATCH_ALLOW lists/),
      });
    }
    expect(received()).toBe(before);
  });

  it('refuses the metadata address, a private network and a name resolving to loopback for every protocol', async () => {
    vi.stubEnv('PLANGATE_DISPATCH_ALLOW', '');
    vi.stubEnv('DISPATCH_HOOK_SECRET', 'dispatch-secret');
    for (const [url, said] of [
      ['http://169.254.169.254/latest/', '169.254.169.254 is a link-local address'],
      ['http://10.20.30.40:8080/', '10.20.30.40 is a private address'],
      [`http://localhost:${new URL(mcp.url).port}/mcp`, 'localhost resolves to a loopback address'],
    ]) {
      for (const { kind, resource } of everyProtocol({ url })) {
        await expect(dispatch(testDispatchRequest({ kind, resource })), `${kind} ${url}`).rejects.toMatchObject({ retryable: false, message: expect.stringContaining(said) });
      }
    }
  });

  it("refuses an agent whose card sends the call to an address the operator did not allow", async () => {
    const card = await (await fetch(`${agent.url}.well-known/agent-card.json`)).json();
    card.supportedInterfaces[0].url = 'http://169.254.169.254/a2a';
    const cardServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card)));
    await new Promise<void>((resolve) => cardServer.listen(0, '127.0.0.1', resolve));
    try {
      const writer = RESOURCE_SCHEMAS.agents.parse({ id: 'writer', endpoint: { protocol: 'a2a', url: `http://127.0.0.1:${(cardServer.address() as AddressInfo).port}/` } });
      await expect(dispatch(testDispatchRequest({ kind: 'agent', resource: writer }))).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('169.254.169.254 is a link-local address') });
    } finally {
      await new Promise<void>((resolve) => cardServer.close(() => resolve()));
    }
  });
});

describe("an endpoint's error answer is said by its status alone", () => {
  it('copies no body of a non-2xx answer into the task error, for every protocol', async () => {
    vi.stubEnv('DISPATCH_HOOK_SECRET', 'dispatch-secret');
    const page = 'INTERNAL-ONLY: db=10.0.0.5 user=admin';
    // An A2A card that sends the call back here, so the agent's own call answers the error too.
    const card = await (await fetch(`${agent.url}.well-known/agent-card.json`)).json();
    const leaky = createServer((req, res) => {
      if (req.method === 'GET' && req.url?.endsWith('agent-card.json')) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card));
      res.writeHead(500, { 'content-type': 'text/plain' }).end(page);
    });
    await new Promise<void>((resolve) => leaky.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(leaky.address() as AddressInfo).port}/`;
    card.supportedInterfaces[0].url = url;
    try {
      for (const { kind, resource } of everyProtocol({ url })) {
        const error = await dispatch(testDispatchRequest({ kind, resource, input: {} })).then(
          () => null,
          (caught: unknown) => caught as Error,
        );
        expect(error, kind).toMatchObject({ retryable: true, message: expect.stringMatching(/answered HTTP 500$/) });
        expect(error!.message, kind).not.toContain('INTERNAL-ONLY');
      }
    } finally {
      await new Promise<void>((resolve) => leaky.close(() => resolve()));
    }
  });
});
