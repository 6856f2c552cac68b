/**
 * Web Worker that lays out a plan DAG (ELK, or for a large plan the layer sweeps of
 * layer-sweep.ts; see lay-out-graph.ts), off the browser's main thread.
 *
 * Why it exists: a layout takes from a fraction of a second (ELK, 150 tasks) to a
 * few hundred ms (20,000 tasks), and it is synchronous JavaScript; run on the main
 * thread it would freeze the editor. Started by layout-client.ts; requests are handled one at a time, in
 * order: `{ id, tasks, nodeSize? }` in, `{ id, positions, ms }` or `{ id, error }` out.
 */

import ELK from 'elkjs/lib/elk.bundled.js';
import type { LayoutTask, NodeSize, XYPosition } from '@/lib/layout/elk-graph';
import { layOutTasks } from '@/lib/layout/first-layout';

export interface LayoutRequest {
  id: number;
  tasks: LayoutTask[];
  nodeSize?: NodeSize;
}

export type LayoutResponse =
  | { id: number; positions: Record<string, XYPosition>; ms: number }
  | { id: number; error: string };

const scope = globalThis as unknown as DedicatedWorkerGlobalScope;

// The bundled build runs ELK in-process (a "fake worker" driven by setTimeout), so
// no nested worker is spawned. When it is loaded inside a worker, though, it also
// installs its own `self.onmessage` to serve ELK's worker protocol (kieler/elkjs#141).
// Imports are evaluated before this module body, so assigning `onmessage` below
// replaces that handler; ELK's in-process instance does not need it.
const elk = new ELK();

async function layout(request: LayoutRequest): Promise<LayoutResponse> {
  const started = performance.now();
  try {
    if (!Array.isArray(request.tasks)) throw new Error('the request has no task list');
    const positions = await layOutTasks(elk, request.tasks, request.nodeSize);
    return { id: request.id, positions, ms: Math.round(performance.now() - started) };
  } catch (error) {
    // ELK rejects with GWT-translated Java exceptions; a very deep graph can also
    // overflow the stack (RangeError). Both carry a usable message.
    const message = error instanceof Error ? error.message : String(error);
    return { id: request.id, error: `layout failed: ${message}` };
  }
}

async function answer(request: LayoutRequest): Promise<void> {
  const response = await layout(request);
  try {
    scope.postMessage(response);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    scope.postMessage({ id: request.id, error: `could not send the layout back: ${message}` } satisfies LayoutResponse);
  }
}

// One layout at a time, in arrival order. ELK defers its own callbacks with
// setTimeout, so overlapping layouts would interleave and every reply would wait
// for the last of them; queued, each is answered as soon as it is done and `ms`
// is its own run time.
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (event: MessageEvent<LayoutRequest>) => {
  const request = event.data;
  queue = queue.then(() => answer(request));
};
