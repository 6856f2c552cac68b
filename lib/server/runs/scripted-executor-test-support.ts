/**
 * Test support: an executor on 127.0.0.1 speaking Plangate's webhook protocol (node:http),
 * told per task what to answer: succeed (200 with JSON), fail (500, retryable), refuse
 * (400, not retryable), or hang until the test releases the call or the caller gives up. It
 * records every call with its idempotency key and when it arrived, so tests can check what
 * the engine sent, in which order, and how often.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer = 'succeed' | 'fail' | 'refuse' | 'hang';

export interface ExecutorCall {
  /** Arrival order across all tasks. */
  seq: number;
  taskId: string;
  runId: string;
  attempt: number;
  idempotencyKey: string;
  /** The input the call carried. */
  input: unknown;
  at: number;
  answer: Answer;
  /** How a hung call ended: released with an answer, or dropped by the caller. */
  ended?: 'released' | 'dropped';
}

export interface ScriptedExecutor {
  url: string;
  calls: ExecutorCall[];
  /** Answers for the next calls of `taskId`, in order; once used up, calls succeed. */
  script(taskId: string, ...answers: Answer[]): void;
  /** Answers every call of `taskId` this way from now on (until `script` or `always` again). */
  always(taskId: string, answer: Answer | null): void;
  /** Hung calls still open. */
  hanging(taskId?: string): ExecutorCall[];
  /** Ends the hung calls of `taskId` (all tasks when omitted) with `answer`. Returns how many. */
  release(taskId: string | null, answer: 'succeed' | 'fail'): number;
  callsOf(taskId: string, runId?: string): ExecutorCall[];
  close(): Promise<void>;
}

export async function startScriptedExecutor(): Promise<ScriptedExecutor> {
  const calls: ExecutorCall[] = [];
  const scripts = new Map<string, Answer[]>();
  const standing = new Map<string, Answer>();
  const open = new Map<ExecutorCall, ServerResponse>();
  let seq = 0;

  const respond = (res: ServerResponse, call: ExecutorCall, answer: 'succeed' | 'fail' | 'refuse') => {
    const [status, body] = answer === 'succeed' ? [200, { task_id: call.taskId, by: call.idempotencyKey }] : answer === 'fail' ? [500, { error: 'failed as told' }] : [400, { error: 'refused as told' }];
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let payload: { run_id?: string; task_id?: string; attempt?: number; input?: unknown } = {};
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // Recorded with empty ids: a test sees it.
      }
      const taskId = payload.task_id ?? '';
      const queued = scripts.get(taskId);
      const answer: Answer = queued?.length ? queued.shift()! : (standing.get(taskId) ?? 'succeed');
      const key = req.headers['idempotency-key'];
      const call: ExecutorCall = { seq: ++seq, taskId, runId: payload.run_id ?? '', attempt: payload.attempt ?? 0, idempotencyKey: typeof key === 'string' ? key : '', input: payload.input, at: Date.now(), answer };
      calls.push(call);
      if (answer !== 'hang') return respond(res, call, answer);
      open.set(call, res);
      res.on('close', () => {
        if (open.delete(call)) call.ended = 'dropped';
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/run`,
    calls,
    script: (taskId, ...answers) => void scripts.set(taskId, answers),
    always: (taskId, answer) => void (answer ? standing.set(taskId, answer) : standing.delete(taskId)),
    hanging: (taskId) => [...open.keys()].filter((call) => taskId === undefined || call.taskId === taskId),
    release(taskId, answer) {
      let n = 0;
      for (const [call, res] of [...open]) {
        if (taskId !== null && call.taskId !== taskId) continue;
        open.delete(call);
        call.ended = 'released';
        respond(res, call, answer);
        n++;
      }
      return n;
    },
    callsOf: (taskId, runId) => calls.filter((call) => call.taskId === taskId && (runId === undefined || call.runId === runId)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
