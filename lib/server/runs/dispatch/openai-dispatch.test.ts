import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_SCHEMAS } from '@/lib/registry';
import { MAX_OUTPUT_BYTES } from './dispatch-types';
import { testDispatchRequest, unreachableUrl } from './dispatch-test-support';
import { dispatchOpenAi } from './openai-dispatch';
import { startOpenAiTestServer, type OpenAiTestServer } from '@/scripts/test-servers/openai-server-test-support';

// The server listens on 127.0.0.1, which the address guard refuses unless the operator allows it.
process.env.PLANGATE_DISPATCH_ALLOW = '127.0.0.1';

let server: OpenAiTestServer;
beforeAll(async () => {
  server = await startOpenAiTestServer();
});
afterAll(() => server.close());
afterEach(() => Object.assign(server.behaviour, { failFirst: 0, delayMs: 0, status: undefined, padTo: undefined, invalid: false }));

const llm = RESOURCE_SCHEMAS.llms.parse({ name: 'small-model' });
const configured = () => ({ LLM_BASE_URL: server.url, LLM_MODEL: 'planner-model', LLM_API_KEY: 'configured-key' });

describe('OpenAI-compatible dispatch against a real chat completions server', () => {
  it('sends the instructions as system and the input as JSON, and returns the text', async () => {
    const request = testDispatchRequest({ kind: 'llm', resource: llm, input: { topic: 'tides' }, task: { instructions: 'Summarise.' } });
    const outcome = await dispatchOpenAi(request, { protocol: 'openai', url: server.url }, {});
    expect(outcome).toEqual({ state: 'succeeded', output: 'echo: {"topic":"tides"}' });
    const call = server.calls.at(-1)!;
    expect(call.body.model).toBe('small-model');
    expect(call.body.messages).toEqual([
      { role: 'system', content: 'Summarise.' },
      { role: 'user', content: '{"topic":"tides"}' },
    ]);
    expect(call.body.response_format).toBeUndefined();
    expect(call.idempotencyKey).toBe('run-1:task-1:1');
  });

  it('uses the configured LLM (base URL, key and model) when the endpoint gives no URL', async () => {
    await dispatchOpenAi(testDispatchRequest({ kind: 'llm', resource: llm }), { protocol: 'openai' }, configured());
    expect(server.calls.at(-1)).toMatchObject({ authorization: 'Bearer configured-key', body: { model: 'planner-model' } });
  });

  it('takes the API key from the named variable, and refuses to start when it is unset', async () => {
    const listed = { PLANGATE_DISPATCH_SECRETS: 'MY_LLM_KEY' };
    await dispatchOpenAi(testDispatchRequest({ kind: 'llm', resource: llm }), { protocol: 'openai', url: server.url, api_key_env: 'MY_LLM_KEY' }, { ...listed, MY_LLM_KEY: 'k-123' });
    expect(server.calls.at(-1)!.authorization).toBe('Bearer k-123');
    await expect(dispatchOpenAi(testDispatchRequest({ kind: 'llm', resource: llm }), { protocol: 'openai', url: server.url, api_key_env: 'MY_LLM_KEY' }, listed)).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('MY_LLM_KEY'),
    });
  });

  it('asks for JSON with response_format when the task declares an output schema, and returns it parsed', async () => {
    const output_schema = { type: 'object', properties: { topic: { type: 'string' }, score: { type: 'number' } }, required: ['topic', 'score'] };
    const request = testDispatchRequest({ kind: 'llm', resource: llm, input: { topic: 'tides' }, task: { parameters: { output_schema } } });
    const outcome = await dispatchOpenAi(request, { protocol: 'openai', url: server.url }, {});
    expect(outcome).toEqual({ state: 'succeeded', output: { topic: 'tides', score: 0 } });
    expect(server.calls.at(-1)!.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'task_output', schema: output_schema, strict: false } });
  });

  it('fails without retrying when no LLM is configured or the endpoint refuses the request', async () => {
    await expect(dispatchOpenAi(testDispatchRequest({ kind: 'llm' }), { protocol: 'openai' }, {})).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('LLM_BASE_URL'),
    });
    server.behaviour.status = 400;
    const refused = dispatchOpenAi(testDispatchRequest({ kind: 'llm', resource: llm }), { protocol: 'openai', url: server.url }, {});
    // Said by status alone: the error answer's body ("Answered 400 as told") is not copied.
    await expect(refused).rejects.toMatchObject({ retryable: false, message: `The LLM endpoint ${server.url}/chat/completions answered HTTP 400` });
  });

  it('fails retryably on a server error and on an answer that is not a completion', async () => {
    server.behaviour.failFirst = 1;
    await expect(dispatchOpenAi(testDispatchRequest({ kind: 'llm', resource: llm }), { protocol: 'openai', url: server.url }, {})).rejects.toMatchObject({
      retryable: true,
      message: expect.stringContaining('HTTP 500'),
    });
    server.behaviour.invalid = true;
    await expect(dispatchOpenAi(testDispatchRequest({ kind: 'llm', resource: llm }), { protocol: 'openai', url: server.url }, {})).rejects.toMatchObject({ retryable: true });
  });

  it('gives up at the deadline, refuses an over-size answer, and fails retryably when unreachable', async () => {
    server.behaviour.delayMs = 2000;
    const slow = testDispatchRequest({ kind: 'llm', resource: llm, task: { parameters: { timeout_seconds: 0.2 } } });
    await expect(dispatchOpenAi(slow, { protocol: 'openai', url: server.url }, {})).rejects.toMatchObject({ retryable: true, message: expect.stringContaining('did not answer within 0.2 s') });
    server.behaviour.delayMs = 0;
    server.behaviour.padTo = MAX_OUTPUT_BYTES + 1;
    await expect(dispatchOpenAi(testDispatchRequest({ kind: 'llm', resource: llm }), { protocol: 'openai', url: server.url }, {})).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining(`${MAX_OUTPUT_BYTES} bytes`),
    });
    const url = await unreachableUrl('/v1');
    await expect(dispatchOpenAi(testDispatchRequest({ kind: 'llm', resource: llm }), { protocol: 'openai', url }, {})).rejects.toMatchObject({
      retryable: true,
      message: `Could not reach ${url}/chat/completions`,
    });
  });
});
