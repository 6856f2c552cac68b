/**
 * Browser side of the layout worker (layout.worker.ts).
 *
 * Why it exists: client components need the ELK layout of a plan as a plain promise,
 * without knowing about workers. This module owns the one shared worker, starts it on
 * first use, matches replies to requests by id and turns worker failures into
 * rejected promises. Requests are answered in the order they were made; a newer
 * request simply queues behind an older one, and callers that only want the latest
 * layout ignore the stale answer.
 *
 * Browser only: nothing runs at import time, and layoutInWorker rejects outside a
 * browser, so importing it from a client component is safe during server rendering.
 */

import type { LayoutTask, NodeSize, XYPosition } from '@/lib/layout/elk-graph';
import type { LayoutRequest, LayoutResponse } from './layout.worker';

export interface LayoutResult {
  /** Top-left corner of each task's node, keyed by task id. */
  positions: Record<string, XYPosition>;
  /** Time the worker spent on the layout, in ms (queueing and transfer excluded). */
  ms: number;
}

interface Pending {
  resolve: (result: LayoutResult) => void;
  reject: (error: Error) => void;
}

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

/** Rejects every request in flight and drops the worker; the next request starts a new one. */
function failAll(message: string): void {
  worker?.terminate();
  worker = null;
  const waiting = [...pending.values()];
  pending.clear();
  for (const request of waiting) request.reject(new Error(message));
}

function sharedWorker(): Worker {
  if (worker) return worker;
  // Keep `new Worker(new URL('…', import.meta.url))` literal: that is the form the
  // bundler (Turbopack, like webpack) recognises and bundles as a worker entry.
  const created = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
  created.onmessage = (event: MessageEvent<LayoutResponse>) => {
    const reply = event.data;
    const request = pending.get(reply.id);
    if (!request) return;
    pending.delete(reply.id);
    if ('error' in reply) request.reject(new Error(`layoutInWorker: ${reply.error}`));
    else {
      // On the performance timeline so `npm run bench` can read the worker's layout time.
      performance.mark('plangate:layout', { detail: { ms: reply.ms } });
      request.resolve({ positions: reply.positions, ms: reply.ms });
    }
  };
  created.onerror = (event: ErrorEvent) => {
    // An uncaught error in the worker, or a worker script that failed to load.
    event.preventDefault();
    failAll(`layoutInWorker: the layout worker failed: ${event.message || 'its script could not be loaded or crashed'}`);
  };
  created.onmessageerror = () => {
    failAll('layoutInWorker: a reply from the layout worker could not be deserialized');
  };
  worker = created;
  return created;
}

/**
 * Lays the tasks out left to right (prerequisites before dependents) in a Web Worker.
 * Only `task_id` and `dependencies` are sent to the worker. Rejects with an Error
 * whose message starts with `layoutInWorker:` when the layout cannot be computed.
 */
export function layoutInWorker(
  tasks: ReadonlyArray<LayoutTask>,
  options: { nodeSize?: NodeSize } = {},
): Promise<LayoutResult> {
  if (typeof window === 'undefined' || typeof Worker === 'undefined') {
    return Promise.reject(new Error('layoutInWorker: Web Workers are only available in the browser'));
  }
  const id = nextId++;
  // Copy only what the layout reads: tasks can carry large descriptions and the
  // request is structured-cloned into the worker.
  const request: LayoutRequest = {
    id,
    tasks: tasks.map((task) => ({ task_id: task.task_id, dependencies: [...task.dependencies] })),
    nodeSize: options.nodeSize,
  };
  return new Promise<LayoutResult>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    try {
      sharedWorker().postMessage(request);
    } catch (error) {
      pending.delete(id);
      const reason = error instanceof Error ? error.message : String(error);
      reject(new Error(`layoutInWorker: could not start the layout worker: ${reason}`));
    }
  });
}
