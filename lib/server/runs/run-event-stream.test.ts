import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../platform/db/client';
import { testDatabases } from '../platform/db/test-databases';
import { cancelRun } from './run-control';
import { runEventStream } from './run-event-stream';
import { getRun } from './run-queries';
import { approvedPlan, runApprover, runEditor } from './run-test-support';
import { startRunWorkers, stopRunWorkers } from './run-workers';
import { scriptedExecutorForFile } from './test-executors-test-support';
import { startRun } from './start-run';

// The feed a run page follows. A cancelled run is marked first and its calls in flight are
// aborted after; the feed must carry how those calls ended, or the page shows a cancelled
// run with a task still running for good.

const SECRET_ENV = 'RUN_EVENT_STREAM_HOOK_SECRET';
const executor = scriptedExecutorForFile(SECRET_ENV);

/** Every event the stream sends until it ends by itself. */
async function readToEnd(response: Response): Promise<{ kind: string; task_id?: string }[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

describe.each(testDatabases())('the run event feed on $name', (database) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await database.open();
    await startRunWorkers(handle, { resultUrl: (run, task) => `http://127.0.0.1:9/api/runs/${run}/tasks/${task}/result`, concurrency: 2 });
  }, 60_000);
  afterAll(async () => {
    await stopRunWorkers(handle);
    await handle.close();
  });

  it('stays open after a cancel until the call under way has been aborted and recorded, then ends', async () => {
    const registry = { dsl_workflows: [{ id: 'step', description: 'A step', endpoint: { protocol: 'webhook' as const, url: executor.url, secret_env: SECRET_ENV } }] };
    const plan = { task_id: 'job-feed', planned_tasks: [{ task_id: 'slow', description: 'Slow', execution_type: 'dsl', function_id: 'step', arguments: {} }] };
    executor.always('slow', 'hang');
    const approved = await approvedPlan(handle, 'feed', plan, registry);
    const { run_id: runId } = await startRun(handle, runEditor, approved.id, { revision: approved.revision, content_hash: approved.content_hash });
    await expect.poll(() => executor.hanging().filter((call) => call.runId === runId).length, { timeout: 20_000 }).toBe(1);

    const feed = await runEventStream(handle, runId, 0, new AbortController().signal);
    if (handle.kind === 'postgres') {
      // The task's row held, so its aborted call cannot record how it ended until released:
      // meanwhile the run is cancelled and the feed must not end.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holding = handle.db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from task_runs where run_id = ${runId} for update`);
        locked();
        await released;
      });
      await isLocked;
      try {
        await cancelRun(handle, runApprover, runId);
        const ended = await Promise.race([feed.clone().text().then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 1_500))]);
        expect(ended, 'the feed ended while a call was still under way').toBe(false);
      } finally {
        release();
        await holding;
      }
    } else {
      await cancelRun(handle, runApprover, runId);
    }
    const events = await readToEnd(feed);

    const kinds = events.map((event) => event.kind);
    expect(kinds).toContain('run_cancelled');
    expect(events.at(-1)).toMatchObject({ kind: 'task_cancelled', task_id: 'slow' });
    expect(kinds.indexOf('run_cancelled')).toBeLessThan(kinds.length - 1);
    expect((await getRun(handle.db, runId)).tasks.map((task) => task.state)).toEqual(['cancelled']);
  });
});
