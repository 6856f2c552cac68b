import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LlmRequestError } from './chat-client';
import type { LlmConfig } from './llm-config';
import { scriptedLlmPerTest } from './scripted-llm-test-support';
import { generateStructured, LlmAnswerError } from './structured-output';

const Plan = z.object({ tasks: z.array(z.object({ task_id: z.string(), tool_id: z.string() })) });
type Plan = z.infer<typeof Plan>;

const GOOD = { tasks: [{ task_id: 't1', tool_id: 'search' }] };
const GOOD_TEXT = JSON.stringify(GOOD);
const KNOWN_TOOLS = ['search', 'summarize'];

const unknownTools = (plan: Plan) =>
  plan.tasks
    .filter((task) => !KNOWN_TOOLS.includes(task.tool_id))
    .map((task) => `Unknown tool "${task.tool_id}"; known tools: ${KNOWN_TOOLS.join(', ')}`);

const setup = scriptedLlmPerTest();

function ask(config: LlmConfig, extra: { check?: (plan: Plan) => string[]; onAttempt?: (a: { n: number; error?: string }) => void } = {}) {
  return generateStructured({ config, system: 'You plan tasks.', user: 'Plan a search.', schema: Plan, schemaName: 'plan', ...extra });
}

describe('generateStructured against the scripted server', () => {
  it('returns good JSON on the first attempt and asks for json_schema output', async () => {
    const { server, config } = await setup([{ content: GOOD_TEXT }]);
    const attempts: Array<{ n: number; error?: string }> = [];
    await expect(ask(config, { onAttempt: (a) => attempts.push(a) })).resolves.toEqual({ value: GOOD, attempts: 1 });
    expect(attempts).toEqual([{ n: 1 }]);

    expect(server.requests).toHaveLength(1);
    const [{ body, headers }] = server.requests;
    expect(body.model).toBe('scripted-model');
    expect(body.temperature).toBe(0.2);
    expect(headers.authorization).toBe('Bearer test-key');
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[0].content).toContain('You plan tasks.');
    expect(body.messages[0].content).toContain('"task_id"');
    expect(body.messages[1]).toEqual({ role: 'user', content: 'Plan a search.' });
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'plan', strict: false } });
    expect(body.response_format.json_schema.schema).toMatchObject({
      type: 'object',
      properties: { tasks: { type: 'array' } },
      required: ['tasks'],
    });
    expect(body.response_format.json_schema.schema.$schema).toBeUndefined();
  });

  it('accepts JSON inside a fenced code block', async () => {
    const { config } = await setup([{ content: `Here is the plan:\n\`\`\`json\n${GOOD_TEXT}\n\`\`\`` }]);
    await expect(ask(config)).resolves.toEqual({ value: GOOD, attempts: 1 });
  });

  it('feeds a not-JSON answer back and takes the second answer', async () => {
    const { server, config } = await setup([{ content: 'I will search the web.' }, { content: GOOD_TEXT }]);
    const attempts: Array<{ n: number; error?: string }> = [];
    await expect(ask(config, { onAttempt: (a) => attempts.push(a) })).resolves.toEqual({ value: GOOD, attempts: 2 });
    expect(attempts[0]).toMatchObject({ n: 1, error: expect.stringMatching(/^not JSON: /) });
    expect(attempts[1]).toEqual({ n: 2 });

    const second = server.requests[1].body.messages;
    expect(second.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(second[2].content).toBe('I will search the web.');
    expect(second[3].content).toMatch(/^Your previous answer was invalid: it is not JSON: /);
    expect(second[3].content).toMatch(/Answer again with JSON only\.$/);
  });

  it('feeds schema problems back with their paths', async () => {
    const bad = JSON.stringify({ tasks: [{ task_id: 't1' }] });
    const { server, config } = await setup([{ content: bad }, { content: GOOD_TEXT }]);
    await expect(ask(config)).resolves.toEqual({ value: GOOD, attempts: 2 });
    const feedback = server.requests[1].body.messages[3].content as string;
    expect(feedback).toContain('Your previous answer was invalid: it does not match the required schema');
    expect(feedback).toContain('- tasks[0].tool_id: ');
  });

  it('gives up after maxRetries + 1 answers and lists what went wrong each time', async () => {
    const unknown = JSON.stringify({ tasks: [{ task_id: 't1', tool_id: 'x' }] });
    const { server, config } = await setup([{ content: 'no JSON here' }, { content: '{"tasks": [{"task_id": 1}]}' }, { content: unknown }, { content: GOOD_TEXT }]);
    const error = await ask(config, { check: unknownTools }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmAnswerError);
    const answerError = error as LlmAnswerError;
    expect(server.requests).toHaveLength(3);
    expect(answerError.attempts).toHaveLength(3);
    expect(answerError.attempts[0]).toMatch(/^not JSON: /);
    expect(answerError.attempts[1]).toMatch(/^schema: tasks\[0\]\.task_id: .*, tasks\[0\]\.tool_id: /);
    expect(answerError.attempts[2]).toBe('unknown tool "x"; known tools: search, summarize');
    expect(answerError.message).toMatch(
      /^The model's answer was unusable after 3 attempts: 1\) not JSON: .*; 2\) schema: tasks\[0\]\.task_id: .*; 3\) unknown tool "x"; known tools: search, summarize$/,
    );
    expect(answerError.answers[2]).toBe(unknown);
    expect(server.requests[2].body.messages).toHaveLength(6);
  });

  it('feeds check problems back verbatim', async () => {
    const unknown = JSON.stringify({ tasks: [{ task_id: 't1', tool_id: 'x' }] });
    const { server, config } = await setup([{ content: unknown }, { content: GOOD_TEXT }]);
    await expect(ask(config, { check: unknownTools })).resolves.toEqual({ value: GOOD, attempts: 2 });
    expect(server.requests[1].body.messages[3].content).toBe(
      'Your previous answer was invalid: there is a problem with its content:\n- Unknown tool "x"; known tools: search, summarize\nAnswer again with JSON only.',
    );
  });

  it('throws LlmAnswerError after maxRetries + 1 calls when the check fails every time', async () => {
    const answers = ['x', 'y', 'z', 'search'].map((tool) => ({ content: JSON.stringify({ tasks: [{ task_id: 't1', tool_id: tool }] }) }));
    const { server, config } = await setup(answers, { maxRetries: 2 });
    const seen: Array<{ n: number; error?: string }> = [];
    const error = await ask(config, { check: unknownTools, onAttempt: (a) => seen.push(a) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmAnswerError);
    expect(server.requests).toHaveLength(3);
    expect((error as LlmAnswerError).attempts).toEqual(['x', 'y', 'z'].map((tool) => `unknown tool "${tool}"; known tools: search, summarize`));
    expect((error as Error).message).toBe(
      'The model\'s answer was unusable after 3 attempts: 1) unknown tool "x"; known tools: search, summarize; ' +
        '2) unknown tool "y"; known tools: search, summarize; 3) unknown tool "z"; known tools: search, summarize',
    );
    expect(seen.map((a) => a.n)).toEqual([1, 2, 3]);
    expect(seen.every((a) => a.error)).toBe(true);
  });

  it('calls the model once when maxRetries is 0', async () => {
    const { server, config } = await setup([{ content: 'nope' }, { content: GOOD_TEXT }], { maxRetries: 0 });
    await expect(ask(config)).rejects.toThrow(/^The model's answer was unusable after 1 attempt: 1\) not JSON/);
    expect(server.requests).toHaveLength(1);
  });

  it('asks again without response_format when the endpoint rejects it with 400, without counting a retry', async () => {
    const { server, config } = await setup([{ rejectResponseFormat: true }, { content: GOOD_TEXT }], { maxRetries: 0 });
    await expect(ask(config)).resolves.toEqual({ value: GOOD, attempts: 1 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0].body.response_format?.type).toBe('json_schema');
    expect(server.requests[1].body.response_format).toBeUndefined();
    expect(server.requests[1].body.messages).toEqual(server.requests[0].body.messages);
  });

  it('propagates HTTP errors at once, naming the endpoint and status', async () => {
    const { server, config } = await setup([{ status: 503, error: 'model is loading' }, { content: GOOD_TEXT }]);
    const error = await ask(config).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect((error as LlmRequestError).status).toBe(503);
    expect((error as Error).message).toBe(`The LLM endpoint ${server.url}/chat/completions answered HTTP 503: model is loading`);
    expect(server.requests).toHaveLength(1);
  });
});
