/**
 * Test support: an OpenAI-compatible chat completions server (node:http) on 127.0.0.1 that
 * answers deterministically: `echo: <user message>` as text, or, when the request asks for
 * response_format json_schema, a JSON value of the schema's shape filled from the user's
 * JSON input where the names match. Counts every call. (lib/llm/scripted-llm-server answers
 * from a script instead, for the planner's tests.)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ChatCall {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the JSON request body as received
  body: any;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
}

export interface OpenAiServerBehaviour {
  /** Answer 500 to this many calls first (counted down). */
  failFirst: number;
  /** Answer this status with an OpenAI-style error instead. */
  status?: number;
  delayMs: number;
  /** Pad the answer's content to this many characters. */
  padTo?: number;
  /** Answer 200 with a body that is not a chat completion. */
  invalid: boolean;
}

export interface OpenAiTestServer {
  /** The base URL ending in /v1 (an endpoint's `url`, or LLM_BASE_URL). */
  url: string;
  behaviour: OpenAiServerBehaviour;
  calls: ChatCall[];
  close(): Promise<void>;
}

const COMPLETIONS_PATH = '/v1/chat/completions';

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

/** A value of `schema`'s shape, taking `source`'s value where a property of the same name and type exists. */
function sample(schema: Record<string, unknown> | undefined, source: unknown): unknown {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  switch (type) {
    case 'object': {
      const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
      const from = typeof source === 'object' && source !== null ? (source as Record<string, unknown>) : {};
      return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, sample(property, from[name])]));
    }
    case 'array':
      return Array.isArray(source) ? source.map((item) => sample(schema?.items as Record<string, unknown>, item)) : [];
    case 'string':
      return typeof source === 'string' ? source : 'sample';
    case 'number':
    case 'integer':
      return typeof source === 'number' ? source : 0;
    case 'boolean':
      return typeof source === 'boolean' ? source : false;
    default:
      return source ?? null;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startOpenAiTestServer(behaviour: Partial<OpenAiServerBehaviour> = {}): Promise<OpenAiTestServer> {
  const current: OpenAiServerBehaviour = { failFirst: 0, delayMs: 0, invalid: false, ...behaviour };
  const calls: ChatCall[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== COMPLETIONS_PATH) {
      sendJson(res, 404, { error: { message: `Only POST ${COMPLETIONS_PATH}`, type: 'invalid_request_error' } });
      return;
    }
    const body = JSON.parse(await readBody(req));
    const key = req.headers['idempotency-key'];
    calls.push({ body, authorization: req.headers.authorization, idempotencyKey: typeof key === 'string' ? key : undefined });
    if (current.delayMs) await sleep(current.delayMs);
    if (current.failFirst > 0) {
      current.failFirst -= 1;
      sendJson(res, 500, { error: { message: 'The test server fails on purpose', type: 'server_error' } });
      return;
    }
    if (current.status) {
      sendJson(res, current.status, { error: { message: `Answered ${current.status} as told`, type: 'invalid_request_error' } });
      return;
    }
    if (current.invalid) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"not":"a completion"');
      return;
    }

    const messages: { role: string; content: string }[] = Array.isArray(body.messages) ? body.messages : [];
    const user = messages.findLast((message) => message.role === 'user')?.content ?? '';
    const format = body.response_format;
    let content: string;
    if (format?.type === 'json_schema') {
      let input: unknown = null;
      try {
        input = JSON.parse(user);
      } catch {
        input = user;
      }
      content = JSON.stringify(sample(format.json_schema?.schema, input));
    } else {
      content = `echo: ${user}`;
    }
    if (current.padTo && content.length < current.padTo) content += ' '.repeat(current.padTo - content.length);
    sendJson(res, 200, {
      id: `chatcmpl-${calls.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: Math.ceil(user.length / 4), completion_tokens: Math.ceil(content.length / 4), total_tokens: Math.ceil((user.length + content.length) / 4) },
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 400, { error: { message: 'The request body is not JSON', type: 'invalid_request_error' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    behaviour: current,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
