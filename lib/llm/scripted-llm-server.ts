/**
 * Test support: a real HTTP server speaking the OpenAI /v1/chat/completions protocol that
 * answers from a script, one reply per request, and records every request body.
 * Used by the Vitest suites and by Playwright (start it, point LLM_BASE_URL at `url`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ScriptedReply =
  /** Answer 200 with this assistant message content. */
  | { content: string }
  /** Answer this HTTP status with an OpenAI-style error body carrying this message. */
  | { status: number; error: string }
  /**
   * Answer 400 if the request has response_format (as servers without structured output
   * do); otherwise skip this step and answer with the next scripted reply.
   */
  | { rejectResponseFormat: true };

export interface ScriptedRequest {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parsed JSON request body, as sent
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

export interface ScriptedLlmServer {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:43567/v1 (use as LLM_BASE_URL). */
  url: string;
  /** Every chat completion request received, in order. */
  requests: ScriptedRequest[];
  close(): Promise<void>;
}

const COMPLETIONS_PATH = '/v1/chat/completions';

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string, param: string | null = null): void {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(res, status, { error: { message, type, param, code: null } });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A rough token count (about four characters a token) for the usage block. */
function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export async function startScriptedLlmServer(script: ScriptedReply[]): Promise<ScriptedLlmServer> {
  const requests: ScriptedRequest[] = [];
  let next = 0;
  let completionCount = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== COMPLETIONS_PATH) {
      sendError(res, 404, `The scripted LLM server only serves POST ${COMPLETIONS_PATH}, not ${req.method} ${path}.`);
      return;
    }
    if (req.method !== 'POST') {
      sendError(res, 405, `Use POST for ${COMPLETIONS_PATH}, not ${req.method}.`);
      return;
    }

    const raw = await readBody(req);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON request body
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      sendError(res, 400, 'The request body is not JSON.');
      return;
    }
    requests.push({ body, headers: { ...req.headers } });
    const requestNumber = requests.length;

    if (body === null || typeof body !== 'object' || !Array.isArray(body.messages) || typeof body.model !== 'string') {
      sendError(res, 400, 'A chat completion request needs "model" (string) and "messages" (array).');
      return;
    }
    if (body.stream) {
      sendError(res, 400, 'The scripted LLM server does not support stream: true.', 'stream');
      return;
    }

    for (;;) {
      const reply = script[next];
      if (!reply) {
        sendError(
          res,
          500,
          `The scripted LLM server's script ran out: it had ${script.length} replies and this is request #${requestNumber}.`,
        );
        return;
      }
      next += 1;

      if ('rejectResponseFormat' in reply) {
        if (body.response_format === undefined) continue;
        const type = body.response_format?.type ?? 'unknown';
        sendError(res, 400, `response_format of type "${type}" is not supported by this server.`, 'response_format');
        return;
      }
      if ('status' in reply) {
        sendError(res, reply.status, reply.error);
        return;
      }

      completionCount += 1;
      const promptTokens = roughTokens(JSON.stringify(body.messages));
      const completionTokens = roughTokens(reply.content);
      sendJson(res, 200, {
        id: `chatcmpl-scripted-${completionCount}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      });
      return;
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `The scripted LLM server failed: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections from fetch would otherwise hold close() open.
        server.closeAllConnections();
      })),
  };
}
