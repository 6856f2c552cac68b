/**
 * The worker threads that run convertor code, with a hard watchdog.
 *
 * Each job runs in a `node:worker_threads` Worker started from CONVERTOR_WORKER_SOURCE
 * (see worker-source.ts for why it is a string). The parent never runs convertor code:
 * it posts the job, and if no answer comes within the job's watchdog time it terminates
 * the worker, which stops even a loop inside wasm that QuickJS's interrupt handler does
 * not reach. A worker that answered is kept for the next job (idle workers are unref'd
 * and closed after IDLE_MS), one that was terminated or crashed is replaced.
 *
 * At most MAX_WORKERS jobs run at once; further calls wait their turn, so a burst of
 * convertors cannot take every core from the server.
 */
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { CONVERTOR_WORKER_SOURCE } from './worker-source';

export type SandboxJob = {
  code: string;
  /** The input as JSON text, or undefined to call the convertor with `undefined`. */
  inputJson: string | undefined;
  timeMs: number;
  memoryBytes: number;
  stackBytes: number;
  /** Largest result accepted, in bytes of JSON; a larger one is measured inside the sandbox and dropped there. */
  maxOutputBytes: number;
  /** QuickJS's interrupt handler enforces timeMs; false leaves only the watchdog (tests). */
  interrupt: boolean;
};

export type SandboxOutcome =
  | { ok: true; json: string; ms: number; bytes: number }
  | { ok: false; kind: 'error' | 'timeout' | 'memory' | 'not_json' | 'too_large'; message: string; ms: number; bytes?: number };

/** The sandbox itself could not be started (QuickJS missing or failing to load). */
export class ConvertorSandboxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConvertorSandboxError';
  }
}

const MAX_WORKERS = 2;
const IDLE_MS = 30_000;
const STARTUP_MS = 20_000;

type Reply =
  | { type: 'ready' }
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; outcome: SandboxOutcome };

type Pending = { id: number; postedAt: number; resolve: (outcome: SandboxOutcome) => void };

class SandboxWorker {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  private pending: Pending | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  dead = false;

  constructor() {
    this.worker = new Worker(CONVERTOR_WORKER_SOURCE, {
      eval: true,
      workerData: { resolveFrom: resolveBases() },
      // The worker gets an empty environment and no loader flags of the parent (tsx,
      // Vitest): nothing in it has secrets to leak, even if QuickJS were escaped.
      env: {},
      execArgv: [],
      // A backstop for the worker's own JS heap; the convertor's memory is the capped
      // wasm memory, which these limits do not cover.
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new ConvertorSandboxError(`the convertor sandbox did not start within ${STARTUP_MS} ms`));
        this.kill();
      }, STARTUP_MS);
      this.worker.on('message', (reply: Reply) => {
        if (reply.type === 'ready') {
          clearTimeout(timer);
          resolve();
        } else if (reply.type === 'fatal') {
          clearTimeout(timer);
          reject(new ConvertorSandboxError(`the convertor sandbox could not start: ${reply.message}`));
          this.kill();
        } else if (reply.type === 'result' && this.pending && this.pending.id === reply.id) {
          const { resolve: done } = this.pending;
          this.pending = null;
          done(reply.outcome);
        }
      });
      this.worker.on('error', (error: Error & { code?: string }) => {
        clearTimeout(timer);
        this.dead = true;
        const startupError = new ConvertorSandboxError(`the convertor sandbox failed: ${error.message}`);
        reject(startupError);
        const pending = this.pending;
        this.pending = null;
        if (!pending) return;
        const ms = Math.round(performance.now() - pending.postedAt);
        if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          pending.resolve({ ok: false, kind: 'memory', message: `the convertor exceeded the sandbox's memory (${error.message})`, ms });
        } else {
          pending.resolve({ ok: false, kind: 'error', message: `the sandbox failed: ${error.message}`, ms });
        }
      });
      this.worker.on('exit', (code) => {
        clearTimeout(timer);
        this.dead = true;
        reject(new ConvertorSandboxError(`the convertor sandbox exited with code ${code} while starting`));
        const pending = this.pending;
        this.pending = null;
        pending?.resolve({ ok: false, kind: 'error', message: `the sandbox exited with code ${code}`, ms: Math.round(performance.now() - pending.postedAt) });
      });
    });
    // Nobody may be awaiting `ready` when it fails (an idle worker that died).
    this.ready.catch(() => undefined);
  }

  run(job: SandboxJob, id: number, watchdogMs: number): Promise<SandboxOutcome> {
    this.setBusy();
    const posted = performance.now();
    return new Promise<SandboxOutcome>((resolve) => {
      const watchdog = setTimeout(() => {
        if (!this.pending || this.pending.id !== id) return;
        this.pending = null;
        this.kill();
        const ms = Math.round(performance.now() - posted);
        resolve({ ok: false, kind: 'timeout', message: `the convertor did not finish within ${job.timeMs} ms and its worker was stopped after ${ms} ms`, ms });
      }, watchdogMs);
      this.pending = {
        id,
        postedAt: posted,
        resolve: (outcome) => {
          clearTimeout(watchdog);
          resolve(outcome);
        },
      };
      this.worker.postMessage({ type: 'job', id, ...job });
    });
  }

  setBusy(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.worker.ref();
  }

  setIdle(onExpire: () => void): void {
    this.worker.unref();
    this.idleTimer = setTimeout(onExpire, IDLE_MS);
    this.idleTimer.unref();
  }

  kill(): void {
    this.dead = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    void this.worker.terminate().catch(() => undefined);
  }
}

/**
 * Where the worker looks for the QuickJS packages: the working directory (the Next
 * server and the scripts run from the repository root) and, if it is a file, this
 * module's own location (Vitest and tsx run the source in place).
 */
function resolveBases(): string[] {
  const bases = [path.join(process.cwd(), 'package.json')];
  try {
    const here = import.meta.url;
    if (typeof here === 'string' && here.startsWith('file:')) bases.push(here);
  } catch {
    // no import.meta.url in this bundle
  }
  return bases;
}

const idle: SandboxWorker[] = [];
let running = 0;
const waiting: Array<() => void> = [];
let nextId = 1;

async function acquire(): Promise<void> {
  if (running < MAX_WORKERS) {
    running += 1;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running -= 1;
}

function takeWorker(): SandboxWorker {
  for (;;) {
    const worker = idle.pop();
    if (!worker) return new SandboxWorker();
    if (!worker.dead) return worker;
  }
}

function park(worker: SandboxWorker): void {
  if (worker.dead) return;
  idle.push(worker);
  worker.setIdle(() => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    worker.kill();
  });
}

/**
 * Runs one job in a sandbox worker. Resolves with the job's outcome, including
 * time-outs and crashes of the worker; rejects only with ConvertorSandboxError when
 * the sandbox cannot be started at all.
 */
export async function runSandboxJob(job: SandboxJob, watchdogMs: number): Promise<SandboxOutcome> {
  await acquire();
  try {
    const worker = takeWorker();
    try {
      await worker.ready;
    } catch (error) {
      worker.kill();
      throw error;
    }
    const outcome = await worker.run(job, nextId++, watchdogMs);
    park(worker);
    return outcome;
  } finally {
    release();
  }
}

/** Terminates the idle workers (tests, shutdown). Running jobs are not affected. */
export async function closeSandboxWorkers(): Promise<void> {
  const workers = idle.splice(0);
  await Promise.all(workers.map((worker) => {
    worker.dead = true;
    return worker.worker.terminate().catch(() => undefined);
  }));
}
