import { describe, expect, it } from 'vitest';
import { chat, LlmRequestError } from './chat-client';
import type { StructuredOutputMode } from './llm-config';
import { scriptedLlmPerTest } from './scripted-llm-test-support';

const setup = scriptedLlmPerTest();

describe('chat', () => {
  const modes: Array<[StructuredOutputMode, unknown]> = [
    ['json_schema', { type: 'json_schema', json_schema: { name: 'my_plan', schema: { type: 'object' }, strict: false } }],
    ['json_object', { type: 'json_object' }],
    ['off', undefined],
  ];
  it.each(modes)('sends the response_format for structuredOutput %s', async (mode, expected) => {
    const { server, config } = await setup([{ content: 'hi' }], { structuredOutput: mode });
    await expect(chat(config, [{ role: 'user', content: 'hello' }], { name: 'my plan', schema: { type: 'object' } })).resolves.toBe('hi');
    expect(server.requests[0].body.response_format).toEqual(expected);
  });

  it('sends no response_format without a schema, and does not fall back on a 400 then', async () => {
    const { server, config } = await setup([{ status: 400, error: 'context too long' }, { content: 'unused' }]);
    await expect(chat(config, [{ role: 'user', content: 'hello' }])).rejects.toThrow(/answered HTTP 400: context too long$/);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body.response_format).toBeUndefined();
  });

  it('reports the second error when the fallback without response_format also fails', async () => {
    const { server, config } = await setup([{ rejectResponseFormat: true }, { status: 401, error: 'bad key' }]);
    await expect(chat(config, [{ role: 'user', content: 'hello' }], { name: 'plan', schema: { type: 'object' } })).rejects.toThrow(
      /answered HTTP 401: bad key \(asked again without response_format, which it had rejected with HTTP 400\)$/,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('says when the scripted server has run out of replies', async () => {
    const { config } = await setup([]);
    await expect(chat(config, [{ role: 'user', content: 'hello' }])).rejects.toThrow(/HTTP 500: The scripted LLM server's script ran out/);
  });

  it('names the endpoint when it cannot be reached', async () => {
    const { server, config } = await setup([]);
    await server.close();
    const error = await chat(config, [{ role: 'user', content: 'hello' }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect((error as Error).message).toContain(`Could not reach the LLM endpoint ${config.baseURL}/chat/completions: `);
    expect((error as LlmRequestError).status).toBeUndefined();
  });
});
