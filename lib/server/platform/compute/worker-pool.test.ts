import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { computeError } from './compute-pool';
import { JobFailedError, JobRefusedError, JobTimeoutError, PoolBusyError, WorkerCrashedError, WorkerPool, type PoolOptions } from './worker-pool';

// The pool's bounds and failures, with small workers that speak lib/compute/protocol.ts
// and misbehave on request: wait, spin forever, exit, throw, refuse, call the server.
// What the real compute worker computes is tested in lib/compute/jobs.test.ts.

const WORKER = String.raw`
const { parentPort } = require('node:worker_threads');
let calls = 0;
parentPort.on('message', (m) => {
  if (m.type === 'reply') return parentPort.postMessage({ type: 'done', id: m.id, ok: true, value: m.ok ? m.value : 'call failed: ' + m.message });
  const { id, kind, input } = m;
  const done = (value) => parentPort.postMessage({ type: 'done', id, ok: true, value });
  if (kind === 'echo') done({ input, jobsSeenHere: ++calls });
  else if (kind === 'wait') setTimeout(() => done(input), input);
  else if (kind === 'spin') for (;;) {}
  else if (kind === 'exit') process.exit(3);
  else if (kind === 'throw') setTimeout(() => { throw new Error('boom'); });
  else if (kind === 'fail') parentPort.postMessage({ type: 'done', id, ok: false, message: 'Error: a bug' });
  else if (kind === 'refuse') parentPort.postMessage({ type: 'done', id, ok: false, message: 'no', refusal: { code: 'unprocessable', message: 'The plan has a cycle' } });
  else if (kind === 'call') parentPort.postMessage({ type: 'call', id, callId: 1, kind: 'double', input });
});
`;

const pools: WorkerPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function pool(options: Partial<PoolOptions> = {}): WorkerPool {
  const made = new WorkerPool({
    name: 'test pool',
    size: 1,
    maxQueue: 1,
    timeoutMs: 10_000,
    queueTimeoutMs: 10_000,
    idleMs: 10_000,
    start: () => new Worker(WORKER, { eval: true }),
    ...options,
  });
  pools.push(made);
  return made;
}

const settled = <T>(promise: Promise<T>) => promise.then((value) => ({ value }), (error: Error) => ({ error }));

describe('WorkerPool', () => {
  it("runs a job in a worker and keeps the worker for the next one", async () => {
    const jobs = pool();
    expect(await jobs.run('echo', { a: [1, 2] })).toEqual({ input: { a: [1, 2] }, jobsSeenHere: 1 });
    expect(await jobs.run('echo', 'again')).toEqual({ input: 'again', jobsSeenHere: 2 });
    expect(jobs.stats()).toEqual({ running: 0, queued: 0, workers: 1 });
  });

  it('runs at most `size` jobs at once, queues `maxQueue` more and refuses the next at once', async () => {
    const jobs = pool({ size: 1, maxQueue: 1 });
    const first = jobs.run('wait', 200);
    const second = jobs.run('wait', 10);
    expect(jobs.stats()).toMatchObject({ running: 1, queued: 1 });
    const third = await settled(jobs.run('echo', 'one too many'));
    expect('error' in third && third.error).toBeInstanceOf(PoolBusyError);
    expect('error' in third && third.error.message).toMatch(/busy with 2 heavy requests \(at most 1 run at once and 1 wait\)/);
    // The refusal did not disturb the jobs it was refused for.
    expect(await Promise.all([first, second])).toEqual([200, 10]);
  });

  it('refuses a job that waited for a worker longer than the queue budget', async () => {
    const jobs = pool({ queueTimeoutMs: 50 });
    const first = jobs.run('wait', 400);
    const waited = await settled(jobs.run('echo', 'late'));
    expect('error' in waited && waited.error).toBeInstanceOf(PoolBusyError);
    expect(await first).toBe(400);
  });

  it('stops a job past its time budget, even one that never yields, and goes on with a new worker', async () => {
    const jobs = pool({ timeoutMs: 200 });
    const spun = await settled(jobs.run('spin', null));
    expect('error' in spun && spun.error).toBeInstanceOf(JobTimeoutError);
    expect('error' in spun && spun.error.message).toMatch(/longer than its budget of 0\.2 s/);
    expect(await jobs.run('echo', 'next', { timeoutMs: 5_000 })).toEqual({ input: 'next', jobsSeenHere: 1 });
  });

  it('fails the job of a worker that exits or throws, clearly and without hanging, and replaces the worker', async () => {
    const jobs = pool();
    const exited = await settled(jobs.run('exit', null));
    expect('error' in exited && exited.error).toBeInstanceOf(WorkerCrashedError);
    expect('error' in exited && exited.error.message).toMatch(/exited with code 3 before the job finished/);
    const threw = await settled(jobs.run('throw', null));
    expect('error' in threw && threw.error).toBeInstanceOf(WorkerCrashedError);
    expect('error' in threw && threw.error.message).toMatch(/boom/);
    expect(await jobs.run('echo', 'still here')).toMatchObject({ input: 'still here' });
  });

  it('fails every job when a worker cannot even start', async () => {
    const jobs = pool({ start: () => new Worker('throw new Error("no such module")', { eval: true }) });
    const failed = await settled(jobs.run('echo', 1));
    expect('error' in failed && failed.error).toBeInstanceOf(WorkerCrashedError);
    expect('error' in failed && failed.error.message).toMatch(/no such module/);
  });

  it("tells a job's refusal from its bug, and answers a job's call to the server", async () => {
    const jobs = pool({ onCall: async (kind, input) => (kind === 'double' ? (input as number) * 2 : Promise.reject(new Error('?'))) });
    const refused = await settled(jobs.run('refuse', null));
    expect('error' in refused && refused.error).toBeInstanceOf(JobRefusedError);
    expect('error' in refused && (refused.error as JobRefusedError).refusal).toEqual({ code: 'unprocessable', message: 'The plan has a cycle' });
    const failed = await settled(jobs.run('fail', null));
    expect('error' in failed && failed.error).toBeInstanceOf(JobFailedError);
    expect(await jobs.run('call', 21)).toBe(42);
  });
});

describe('computeError', () => {
  it('answers busy and over budget with 503, a refusal with its own status and a zod refusal as every bad request', () => {
    const busy = computeError(new PoolBusyError('busy')) as AppError;
    expect([busy.status, busy.code, busy.extra]).toEqual([503, 'unavailable', { retry_after_seconds: 5 }]);
    expect((computeError(new JobTimeoutError('slow')) as AppError).status).toBe(503);
    expect((computeError(new WorkerCrashedError('gone')) as AppError).status).toBe(500);
    const cycle = computeError(new JobRefusedError({ code: 'unprocessable', message: 'The plan has a cycle' })) as AppError;
    expect([cycle.status, cycle.message]).toEqual([422, 'The plan has a cycle']);
    const zod = computeError(new JobRefusedError({ code: 'bad_request', message: 'Invalid', what: 'request body', issues: [{ path: ['plan', 'planned_tasks', 0], message: 'Required' }] })) as AppError;
    expect([zod.status, zod.message]).toEqual([400, 'Invalid request body: plan.planned_tasks[0]: Required']);
    expect(computeError(new JobFailedError('a bug'))).not.toBeInstanceOf(AppError);
  });

  it("maps the errors of another bundle's copy of the pool too (a server action's caller, a route's pool)", () => {
    // Next bundles route handlers and server actions apart, so the pool on globalThis may
    // reject with classes that are not this module's: only their names are the same.
    const foreign = Object.assign(new Error('The plan has a cycle'), { name: 'JobRefusedError', refusal: { code: 'unprocessable', message: 'The plan has a cycle' } });
    const refused = computeError(foreign) as AppError;
    expect(refused).toBeInstanceOf(AppError);
    expect([refused.status, refused.message]).toEqual([422, 'The plan has a cycle']);
    expect((computeError(Object.assign(new Error('busy'), { name: 'PoolBusyError' })) as AppError).status).toBe(503);
  });
});
