import { parentPort } from 'node:worker_threads';
import { COMPUTE_JOBS, JobRefusal, type CallServer } from './jobs';
import type { FromWorker, ToWorker } from './protocol';

// The entry of a compute worker thread (started by lib/server/platform/compute/compute-pool.ts):
// runs one job of jobs.ts at a time and answers with its result, its refusal, or the
// error it threw. A `call` to the server waits for the reply with the same call id.

const port = parentPort;
if (!port) throw new Error('compute.worker.ts runs as a worker thread (lib/server/platform/compute/compute-pool.ts)');

const replies = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextCallId = 1;

const post = (message: FromWorker) => port.postMessage(message);

port.on('message', (message: ToWorker) => {
  if (message.type === 'reply') {
    const waiting = replies.get(message.callId);
    replies.delete(message.callId);
    if (!waiting) return;
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(new Error(message.message));
    return;
  }
  const { id, kind, input } = message;
  const call: CallServer = (callKind, callInput) =>
    new Promise((resolve, reject) => {
      const callId = nextCallId++;
      replies.set(callId, { resolve, reject });
      post({ type: 'call', id, callId, kind: callKind, input: callInput });
    });
  const job = (COMPUTE_JOBS as Record<string, (input: unknown, call: CallServer) => Promise<unknown>>)[kind];
  const run = job ? job(input, call) : Promise.reject(new Error(`no compute job "${kind}"`));
  run.then(
    (value) => post({ type: 'done', id, ok: true, value }),
    (error: unknown) =>
      post(
        error instanceof JobRefusal
          ? { type: 'done', id, ok: false, message: error.message, refusal: error.refusal }
          : { type: 'done', id, ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      ),
  );
});
