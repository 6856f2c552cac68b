/**
 * How fast Plangate runs an approved plan (issue #16's targets), on this machine:
 * - the montage trace (2,122 tasks) as one run, every task a zero-latency MCP tool call
 *   (a real MCP server on 127.0.0.1), on in-process PGlite: under 60 s;
 * - how long after a task's completion is committed its event reaches a reader of the run's
 *   live feed (the SSE stream the run view listens to): p95 under 1 s;
 * - how long after a worker is killed mid-call another worker calls again (takes its job
 *   over), with the same idempotency key: every trial under 5 s.
 *
 *   npm run bench   (this is its last part: tsx --conditions=react-server scripts/bench-runs.ts)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseWfFormat } from '../lib/formats/wfformat';
import { openDatabase } from '../lib/server/platform/db/client';
import { startMcpTestServer } from './test-servers/mcp-server-test-support';
import { closeMcpSessions } from '../lib/server/runs/dispatch/mcp-sessions';
import { runEventStream } from '../lib/server/runs/run-event-stream';
import { getRun } from '../lib/server/runs/run-queries';
import { approvedPlan } from '../lib/server/runs/run-test-support';
import { startRunWorker, startRunWorkers, stopRunWorkers } from '../lib/server/runs/run-workers';
import { startSecondWorker } from '../lib/server/runs/run-test-support';
import { startScriptedExecutor } from '../lib/server/runs/scripted-executor-test-support';
import { startRun } from '../lib/server/runs/start-run';
import { runEditor } from '../lib/server/runs/run-test-support';
import { WFCOMMONS_TRACES, wfcommonsDir } from './wfcommons-traces';

const RUN_TARGET_MS = 60_000;
const FEED_TARGET_MS = 1_000;
const TAKEOVER_TARGET_MS = 5_000;
const TAKEOVER_TRIALS = 5;

// The executors listen on 127.0.0.1; the takeover trials' webhook names its secret.
process.env.PLANGATE_DISPATCH_ALLOW ??= '127.0.0.1';
const TAKEOVER_SECRET = 'BENCH_TAKEOVER_HOOK_SECRET';
process.env[TAKEOVER_SECRET] = 'bench-takeover-secret';
process.env.PLANGATE_DISPATCH_SECRETS = [process.env.PLANGATE_DISPATCH_SECRETS, TAKEOVER_SECRET].filter(Boolean).join(',');

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Kills a worker mid-call (it stops beating, writing and fetching, its job left active in the
 * queue, as after kill -9) and times until another worker's call of the same task arrives at
 * the executor: the lease runs out, the sweep fails the job back, a worker fetches it.
 */
async function measureTakeover() {
  const executor = await startScriptedExecutor();
  const handle = await openDatabase({ kind: 'pglite', dataDir: null });
  const options = { resultUrl: () => 'http://127.0.0.1:9/unused', concurrency: 2 };
  const times: number[] = [];
  let sameKey = true;
  try {
    const registry = { dsl_workflows: [{ id: 'held', description: 'Hangs when told', endpoint: { protocol: 'webhook' as const, url: executor.url, secret_env: TAKEOVER_SECRET } }] };
    const plan = { task_id: 'bench-takeover', planned_tasks: [{ task_id: 'held', description: 'Held by the worker that dies', execution_type: 'dsl', function_id: 'held', arguments: {} }] };
    const approved = await approvedPlan(handle, 'Bench takeover', plan, registry);
    for (let trial = 0; trial < TAKEOVER_TRIALS; trial++) {
      executor.script('held', 'hang');
      // Only the victim works the queue when the run starts, so it holds the call.
      const victim = await startSecondWorker(handle, options);
      const { run_id } = await startRun(handle, runEditor, approved.id, { revision: approved.revision, content_hash: approved.content_hash });
      await until('the call to hang', () => executor.hanging('held').length === 1);
      const survivor = await startRunWorker(handle, options);
      // Into the lease's second, as a crash at a random moment would be.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 1_000));
      await victim.kill();
      const killedAt = Date.now();
      await until('the takeover', () => executor.callsOf('held', run_id).length === 2);
      const calls = executor.callsOf('held', run_id);
      times.push(calls[1].at - killedAt);
      sameKey &&= calls[0].idempotencyKey === calls[1].idempotencyKey;
      await until('the run to succeed', async () => (await getRun(handle.db, run_id)).state === 'succeeded');
      await survivor.stop();
      await victim.dispose();
    }
  } finally {
    executor.release(null, 'fail');
    await stopRunWorkers(handle);
    await handle.close();
    await executor.close();
  }
  return {
    trials: times.length,
    ms: times,
    max_ms: Math.max(...times),
    same_idempotency_key: sameKey,
    target_ms: TAKEOVER_TARGET_MS,
    ok: sameKey && times.length === TAKEOVER_TRIALS && Math.max(...times) < TAKEOVER_TARGET_MS,
  };
}

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
    const takeover = await measureTakeover();
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
      takeover,
    };
    console.log(JSON.stringify(report, null, 2));
    if (!report.run.ok || !report.live_feed.ok || !report.takeover.ok) process.exitCode = 1;
  } finally {
    await stopRunWorkers(handle);
    await closeMcpSessions();
    await handle.close();
    await mcp.close();
  }
}

void main();
