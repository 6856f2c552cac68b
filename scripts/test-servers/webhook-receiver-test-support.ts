/**
 * Test support: a webhook executor on 127.0.0.1 (node:http) that checks Plangate's signature
 * the way an outside receiver would (its own HMAC code, not Plangate's), records every
 * delivery with its idempotency key and attempt, and answers as told: 200 with JSON, 202 and
 * a signed post back to `result_url` later (signed as docs/security.md "Signed results" says),
 * or 500 for its first N deliveries.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface WebhookDelivery {
  idempotencyKey: string | undefined;
  /** The X-Plangate-Attempt header: signed back with the result. */
  attempt: string | undefined;
  /** Whether the signature and timestamp checked out; unsigned or tampered deliveries are answered 401. */
  verified: boolean;
  /** The parsed payload ({ run_id, task_id, attempt, task, input, result_url }), when it was JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the JSON body as received
  body: any;
  /** The status the receiver answered. */
  status: number;
  headers: IncomingHttpHeaders;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface WebhookReceiverBehaviour {
  /** 'respond': 200 with `{ task_id, echo: input }`; 'accept': 202, the result to be posted later with postResult. */
  mode: 'respond' | 'accept';
  /** Answer 500 to this many deliveries first (counted down as they arrive). */
  failFirst: number;
  /** Answer this status (with a short text body) instead. */
  status?: number;
  /** Wait this long before answering. */
  delayMs: number;
  /** Answer a JSON string this many characters long. */
  bigBytes?: number;
  /** Check signatures with this secret instead (an outgoing webhook's, known once it is created). */
  secret?: string;
}

export interface WebhookReceiver {
  /** Where to deliver, e.g. http://127.0.0.1:41234/hook. */
  url: string;
  /** Change how the next deliveries are answered. */
  behaviour: WebhookReceiverBehaviour;
  deliveries: WebhookDelivery[];
  /** Deliveries (verified or not) that carried `idempotencyKey`. */
  countFor(idempotencyKey: string): number;
  /**
   * Posts `result` to the `result_url` of the last delivery of `taskId`, signed with the
   * receiver's secret (`timestampSeconds` lets a test send a stale one). Returns the answer.
   */
  postResult(taskId: string, result: unknown, options?: { timestampSeconds?: number }): Promise<{ status: number; text: string }>;
  /** The headers an executor sends with `body` as the result for `resultUrl`, attempt `attempt`. */
  resultHeaders(resultUrl: string, attempt: string, body: string, timestampSeconds?: number): Record<string, string>;
  close(): Promise<void>;
}

const HOOK_PATH = '/hook';
const MAX_SKEW_SECONDS = 300;

function hmac(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The executor's side of the result recipe: method, the result URL's path, attempt, timestamp, body, one per line. */
function resultHmac(secret: string, resultUrl: string, attempt: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`POST\n${new URL(resultUrl).pathname}\n${attempt}\n${timestamp}\n${body}`).digest('hex');
}

function signatureValid(secret: string, req: IncomingMessage, body: string): boolean {
  const timestamp = req.headers['x-plangate-timestamp'];
  const signature = req.headers['x-plangate-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || !signature.startsWith('sha256=')) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return false;
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  const given = Buffer.from(signature.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startWebhookReceiver(secret: string, behaviour: Partial<WebhookReceiverBehaviour> = {}): Promise<WebhookReceiver> {
  const current: WebhookReceiverBehaviour = { mode: 'respond', failFirst: 0, delayMs: 0, ...behaviour };
  const deliveries: WebhookDelivery[] = [];

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== HOOK_PATH) {
        res.writeHead(404).end();
        return;
      }
      const raw = await readBody(req);
      const key = req.headers['idempotency-key'];
      const attempt = req.headers['x-plangate-attempt'];
      const delivery: WebhookDelivery = {
        idempotencyKey: typeof key === 'string' ? key : undefined,
        attempt: typeof attempt === 'string' ? attempt : undefined,
        verified: signatureValid(current.secret ?? secret, req, raw),
        body: null,
        status: 0,
        headers: req.headers,
        at: Date.now(),
      };
      try {
        delivery.body = JSON.parse(raw);
      } catch {
        delivery.body = null;
      }
      deliveries.push(delivery);
      const answer = (status: number, body: string, type = 'application/json') => {
        delivery.status = status;
        res.writeHead(status, { 'content-type': type }).end(body);
      };

      // Counted down on arrival, not after the delay: a delivery still held when a test ends
      // (its run cancelled) must not take a failure the next test set up.
      const failing = delivery.verified && current.failFirst > 0;
      if (failing) current.failFirst -= 1;
      if (current.delayMs) await sleep(current.delayMs);
      if (!delivery.verified) return answer(401, JSON.stringify({ error: 'bad signature' }));
      if (failing) return answer(500, 'try again later', 'text/plain');
      if (current.status) return answer(current.status, `answered ${current.status} as told`, 'text/plain');
      if (current.bigBytes) return answer(200, JSON.stringify('x'.repeat(current.bigBytes)));
      if (current.mode === 'accept') return answer(202, JSON.stringify({ accepted: true }));
      answer(200, JSON.stringify({ task_id: delivery.body?.task_id, echo: delivery.body?.input }));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const resultHeaders = (resultUrl: string, attempt: string, body: string, timestampSeconds?: number): Record<string, string> => {
    const timestamp = String(timestampSeconds ?? Math.floor(Date.now() / 1000));
    return {
      'content-type': 'application/json',
      'x-plangate-timestamp': timestamp,
      'x-plangate-attempt': attempt,
      'x-plangate-signature': `sha256=${resultHmac(secret, resultUrl, attempt, timestamp, body)}`,
    };
  };

  return {
    url: `http://127.0.0.1:${port}${HOOK_PATH}`,
    behaviour: current,
    deliveries,
    countFor: (idempotencyKey) => deliveries.filter((delivery) => delivery.idempotencyKey === idempotencyKey).length,
    resultHeaders,
    async postResult(taskId, result, options = {}) {
      const delivery = deliveries.findLast((candidate) => candidate.body?.task_id === taskId);
      if (!delivery) throw new Error(`No delivery of task ${taskId} to answer`);
      const body = JSON.stringify(result);
      const resultUrl: string = delivery.body.result_url;
      const headers = { ...resultHeaders(resultUrl, delivery.attempt ?? '', body, options.timestampSeconds), 'idempotency-key': delivery.idempotencyKey ?? '' };
      const response = await fetch(resultUrl, { method: 'POST', headers, body });
      return { status: response.status, text: await response.text() };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
