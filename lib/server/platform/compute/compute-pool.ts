import 'server-only';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { z } from 'zod';
import type { ComputeJobKind, ComputeJobs } from '@/lib/compute/jobs';
import { runConvertor } from '@/lib/simulate/sandbox/run-convertor';
import { AppError, ERROR_STATUS, fromZodError } from '../errors';
import { WorkerPool, type JobRefusedError } from './worker-pool';

// The server's one pool of compute workers (docs/architecture.md, "Heavy requests"): dry
// runs, Monte Carlo and validation run there, so the event loop keeps answering
// (GET /api/health included) while one of them takes seconds. Its bounds come from the
// environment (docs/operations.md):
//   PLANGATE_COMPUTE_WORKERS     jobs at once, one worker each (default: cores - 1, at least 1)
//   PLANGATE_COMPUTE_QUEUE       jobs that may wait for a worker; one more is a 503 (default 8)
//   PLANGATE_COMPUTE_TIMEOUT_MS  running time of one job before it is stopped, a 503 (default 120 s)
// A job that waits longer than the running budget for a worker is a 503 too.

function envInteger(name: string, fallback: number, min: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value >= min ? value : fallback;
}

/**
 * What a worker runs outside Next (Vitest, the tsx scripts): there is no bundle, so it
 * registers tsx's require hook (TypeScript, and the `@/` paths of the tsconfig.json in the
 * working directory, the repository root) and loads the entry's source. CommonJS for Node 20.
 */
const SOURCE_BOOTSTRAP = String.raw`
const { workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const load = createRequire(workerData.entry);
load('tsx/cjs');
load(workerData.entry);
`;

/** A worker is given this much heap; a job past it fails with a clear error, the server does not. */
const WORKER_HEAP_MB = 1024;

/**
 * Starts one compute worker. Under Next (`next build` / `next dev`, where NEXT_RUNTIME is
 * set) the bundler sees `new Worker(new URL(…, import.meta.url))`, bundles the entry with
 * what it imports, and this line starts the bundled file; elsewhere the entry's source
 * runs through tsx.
 */
function startComputeWorker(): Worker {
  const options: WorkerOptions = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB }, workerData: {} };
  if (process.env.NEXT_RUNTIME) return new Worker(new URL('../../../compute/compute.worker.ts', import.meta.url), options);
  const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../compute/compute.worker.ts');
  return new Worker(SOURCE_BOOTSTRAP, { ...options, eval: true, execArgv: [], workerData: { entry } });
}

/** What a job may ask of the server: a convertor runs in the server's sandbox pool (one bound for every dry run). */
async function answerCall(kind: string, input: unknown): Promise<unknown> {
  if (kind === 'convertor') {
    const { code, input: value } = input as { code: string; input: unknown };
    return runConvertor(code, value);
  }
  throw new Error(`unknown call "${kind}"`);
}

type PoolGlobal = typeof globalThis & { [poolKey]?: WorkerPool };
// On globalThis: route bundles share one process, and one bound must hold for all of them.
const poolKey = Symbol.for('plangate.computePool');

export function computePool(): WorkerPool {
  const store = globalThis as PoolGlobal;
  if (!store[poolKey]) {
    const timeoutMs = envInteger('PLANGATE_COMPUTE_TIMEOUT_MS', 120_000, 1);
    store[poolKey] = new WorkerPool({
      name: 'compute pool',
      size: envInteger('PLANGATE_COMPUTE_WORKERS', Math.max(1, os.availableParallelism() - 1), 1),
      maxQueue: envInteger('PLANGATE_COMPUTE_QUEUE', 8, 0),
      timeoutMs,
      queueTimeoutMs: timeoutMs,
      idleMs: 60_000,
      start: startComputeWorker,
      onCall: answerCall,
    });
  }
  return store[poolKey];
}

/** Seconds a client refused for a busy pool is asked to wait (Retry-After). */
const BUSY_RETRY_SECONDS = 5;

/**
 * A pool or job error as the API's error: busy and over budget are 503s, a refusal is its
 * 4xx. Told apart by the name each error class sets, not by instanceof: the pool lives on
 * globalThis, so it may have been made by another bundle's copy of worker-pool.ts (a route
 * handler's, when this is a server action's), whose classes are not this copy's.
 */
export function computeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  switch (error.name) {
    case 'PoolBusyError':
      return new AppError('unavailable', 503, error.message, undefined, { retry_after_seconds: BUSY_RETRY_SECONDS });
    case 'JobTimeoutError':
      return new AppError('unavailable', 503, error.message);
    case 'WorkerCrashedError':
      return new AppError('internal', 500, error.message);
    case 'JobRefusedError': {
      const { code, message, issues, what, details, extra } = (error as JobRefusedError).refusal;
      if (issues?.length) return fromZodError({ issues } as unknown as z.ZodError, what ?? 'request body');
      return new AppError(code, ERROR_STATUS[code], message, details, extra);
    }
    case 'JobFailedError':
      return new Error(`compute job failed: ${error.message}`);
    default:
      return error;
  }
}

/** Runs one job of lib/compute/jobs.ts in the pool; its failures are thrown as computeError says. */
export async function runComputeJob<K extends ComputeJobKind>(kind: K, input: Parameters<ComputeJobs[K]>[0]): Promise<Awaited<ReturnType<ComputeJobs[K]>>> {
  try {
    return await computePool().run<Awaited<ReturnType<ComputeJobs[K]>>>(kind, input);
  } catch (error) {
    throw computeError(error);
  }
}
