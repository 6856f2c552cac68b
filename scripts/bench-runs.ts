/**
 * How fast Plangate runs an approved plan (issue #16's targets), on this machine:
 * - the montage trace (2,122 tasks) as one run, every task a zero-latency MCP tool call
 *   (a real MCP server on 127.0.0.1), on in-process PGlite: under 60 s;
 * - how long after a task's completion is committed its event reaches a reader of the run's
 *   live feed (the SSE stream the run view listens to): p95 under 1 s.
 *
 *   npm run bench   (this is its last part: tsx --conditions=react-server scripts/bench-runs.ts)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseWfFormat } from '../lib/formats/wfformat';
import { openDatabase } from '../lib/server/db/client';
import { startMcpTestServer } from '../lib/server/runs/dispatch/test-servers/mcp-server-test-support';
import { closeMcpSessions } from '../lib/server/runs/dispatch/mcp-sessions';
import { runEventStream } from '../lib/server/runs/run-event-stream';
import { getRun } from '../lib/server/runs/run-queries';
import { approvedPlan } from '../lib/server/runs/run-test-support';
import { startRunWorkers, stopRunWorkers } from '../lib/server/runs/run-workers';
import { startRun } from '../lib/server/runs/start-run';
import { runEditor } from '../lib/server/runs/run-test-support';
import { WFCOMMONS_TRACES, wfcommonsDir } from './wfcommons-traces';

const RUN_TARGET_MS = 60_000;
const FEED_TARGET_MS = 1_000;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main() {
  const trace = parseWfFormat(readFileSync(path.join(wfcommonsDir(), WFCOMMONS_TRACES.montage), 'utf8'));
  const mcp = await startMcpTestServer();
  const handle = await openDatabase({ kind: 'pglite', dataDir: null });
  try {
    const plan = {
      task_id: 'bench-montage',
      planned_tasks: trace.tasks.map((t) => ({ task_id: t.task_id, description: t.description || t.task_id, execution_type: 'tool', tool_id: 'echo', arguments: { task: t.task_id }, dependencies: t.dependencies })),
    };
    const registry = { tools: [{ id: 'echo', description: 'Answers its arguments', endpoint: { protocol: 'mcp' as const, url: mcp.url } }] };
    const approved = await approvedPlan(handle, 'Bench montage', plan, registry);
    await startRunWorkers(handle, { resultUrl: () => 'http://127.0.0.1:9/unused', concurrency: 8 });

    const started = performance.now();
    const { run_id } = await startRun(handle, runEditor, approved.id, { revision: approved.revision, content_hash: approved.content_hash });
    // Read the live feed as the run view does, and time each completion's arrival.
    const abort = new AbortController();
    const delays: number[] = [];
    const feed = (await runEventStream(handle, run_id, 0, abort.signal)).body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await feed.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (!data) continue;
        const event = JSON.parse(data.slice(6)) as { kind: string; at: string };
        if (event.kind === 'task_succeeded') delays.push(Date.now() - Date.parse(event.at));
      }
    }
    const elapsed = performance.now() - started;
    abort.abort();
    const run = await getRun(handle.db, run_id);
    const report = {
      run: {
        tasks: plan.planned_tasks.length,
        state: run.state,
        succeeded: run.counts.succeeded ?? 0,
        wall_ms: Math.round(elapsed),
        per_task_ms: Number((elapsed / plan.planned_tasks.length).toFixed(1)),
        target_ms: RUN_TARGET_MS,
        ok: run.state === 'succeeded' && elapsed < RUN_TARGET_MS,
      },
      live_feed: {
        events: delays.length,
        p50_ms: percentile(delays, 50),
        p95_ms: percentile(delays, 95),
        max_ms: Math.max(...delays),
        target_p95_ms: FEED_TARGET_MS,
        ok: percentile(delays, 95) < FEED_TARGET_MS,
      },
    };
    console.log(JSON.stringify(report, null, 2));
    if (!report.run.ok || !report.live_feed.ok) process.exitCode = 1;
  } finally {
    await stopRunWorkers(handle);
    await closeMcpSessions();
    await handle.close();
    await mcp.close();
  }
}

void main();
