import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedLlmServer, type ScriptedLlmServer } from './scripted-llm-server';

let server: ScriptedLlmServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function post(url: string, body: unknown) {
  return fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

const request = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

describe('startScriptedLlmServer', () => {
  it('answers with the real chat.completion shape and records the request', async () => {
    server = await startScriptedLlmServer([{ content: '{"ok":true}' }]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await post(server.url, request);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const json = await res.json();
    expect(json).toMatchObject({
      id: expect.any(String),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: '{"ok":true}' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), total_tokens: expect.any(Number) },
    });
    expect(server.requests.map((r) => r.body)).toEqual([request]);
  });

  it('answers scripted errors, rejects response_format only when present, and says when the script ran out', async () => {
    server = await startScriptedLlmServer([{ status: 429, error: 'slow down' }, { rejectResponseFormat: true }, { rejectResponseFormat: true }, { content: 'a' }]);
    const limited = await post(server.url, request);
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.message).toBe('slow down');

    const rejected = await post(server.url, { ...request, response_format: { type: 'json_object' } });
    expect(rejected.status).toBe(400);
    expect((await rejected.json()).error).toMatchObject({ param: 'response_format', message: expect.stringContaining('json_object') });

    // Without response_format the rejecting step is skipped.
    const plain = await post(server.url, request);
    expect((await plain.json()).choices[0].message.content).toBe('a');

    const exhausted = await post(server.url, request);
    expect(exhausted.status).toBe(500);
    expect((await exhausted.json()).error.message).toBe("The scripted LLM server's script ran out: it had 4 replies and this is request #4.");
    expect(server.requests).toHaveLength(4);
  });

  it('answers 404 for other paths', async () => {
    server = await startScriptedLlmServer([]);
    const res = await fetch(`${server.url}/models`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.message).toContain('POST /v1/chat/completions');
  });
});
