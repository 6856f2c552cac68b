import 'server-only';
import { and, count, eq } from 'drizzle-orm';
import { FINISHED_RUN_STATES, isRunSettled, type RunState } from '@/lib/runs/run-states';
import type { DatabaseHandle } from '../platform/db/client';
import { runs, taskRuns } from '../platform/db/schema';
import { notFound } from '../platform/errors';
import { nextRunEvent } from './run-events';
import { runEventsAfter } from './run-queries';

// A run's events as Server-Sent Events: what is recorded after `after`, then each new event
// as it commits (woken by the feed's NOTIFY, and at least every POLL_MS in case a wake-up is
// lost). The stream ends once the run has settled (finished, with no call still under way)
// and its last events are sent, or when the client goes away.

const POLL_MS = 2_000;
const COALESCE_MS = 50;
/** A comment line now and then keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

export async function runEventStream(handle: DatabaseHandle, runId: string, after: number, signal: AbortSignal): Promise<Response> {
  const stateOf = async () => (await handle.db.select({ state: runs.state }).from(runs).where(eq(runs.id, runId)))[0]?.state as RunState | undefined;
  // Tasks are counted only once the run has finished: while it goes, the loop asks no more than before.
  const settled = async (state: RunState) => {
    if (!FINISHED_RUN_STATES.has(state)) return false;
    const [{ running }] = await handle.db.select({ running: count() }).from(taskRuns).where(and(eq(taskRuns.runId, runId), eq(taskRuns.state, 'running')));
    return isRunSettled(state, running);
  };
  if (!(await stateOf())) throw notFound(`Run "${runId}"`);
  const encoder = new TextEncoder();
  let seq = after;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let lastWrite = Date.now();
      const write = (text: string) => {
        controller.enqueue(encoder.encode(text));
        lastWrite = Date.now();
      };
      write('retry: 2000\n\n');
      try {
        while (!signal.aborted) {
          const state = await stateOf();
          for (;;) {
            const events = await runEventsAfter(handle.db, runId, seq);
            for (const event of events) write(`id: ${event.seq}\nevent: run_event\ndata: ${JSON.stringify(event)}\n\n`);
            if (events.length) seq = events[events.length - 1].seq;
            if (events.length < 500) break;
          }
          // Read before the events, so an event recorded with the final state was sent above.
          if (!state || (await settled(state))) break;
          if (Date.now() - lastWrite > KEEPALIVE_MS) write(': keepalive\n\n');
          await nextRunEvent(handle, runId, POLL_MS, signal);
          // A busy run commits events in bursts: one read a little later sends them together.
          await new Promise((resolve) => setTimeout(resolve, COALESCE_MS));
        }
      } catch (error) {
        if (!signal.aborted) console.error('[plangate] run event stream:', (error as Error).message);
      } finally {
        try {
          controller.close();
        } catch {
          // The client went away first.
        }
      }
    },
  });
  return new Response(stream, {
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' },
  });
}
