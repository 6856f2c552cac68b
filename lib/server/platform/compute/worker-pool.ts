import 'server-only';
import type { Worker } from 'node:worker_threads';
import type { FromWorker, Refusal, ToWorker } from '@/lib/compute/protocol';

// A small pool of worker threads for the server's CPU-heavy requests (dry runs, Monte
// Carlo, validation, parsing a whole plan), so that one of them never holds the event
// loop: the thread that answers every other request only posts the job and waits.
//
// Bounded three ways, so heavy requests queue briefly or are refused, never pile up:
// - at most `size` jobs run at once, one per worker;
// - at most `maxQueue` wait for a worker; one more is refused at once (PoolBusyError);
// - a job waits at most `queueTimeoutMs` for a worker (then PoolBusyError) and runs at most
//   its `timeoutMs`, after which its worker is terminated (JobTimeoutError), which stops
//   even a loop that never yields.
// A worker that crashes or exits mid-job fails that job with WorkerCrashedError and is
// replaced by the next job that needs one; nothing waits on a dead worker. Idle workers
// do not keep the process alive and are closed after `idleMs`.

export interface PoolOptions {
  /** Named in error messages: "the compute pool". */
  name: string;
  size: number;
  maxQueue: number;
  /** Default running-time budget of one job. */
  timeoutMs: number;
  queueTimeoutMs: number;
  idleMs: number;
  /** Starts one worker speaking lib/compute/protocol.ts. */
  start: () => Worker;
  /** Answers a job's `call` (e.g. running a convertor); rejections reach the job as an error. */
  onCall?: (kind: string, input: unknown) => Promise<unknown>;
}

/** Every worker is busy and the queue is full, or a job waited too long for a worker. */
export class PoolBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoolBusyError';
  }
}

/** A job ran past its budget; its worker was terminated. */
export class JobTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobTimeoutError';
  }
}

/** The worker running a job died (an uncaught error, out of memory, exit) before answering. */
export class WorkerCrashedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashedError';
  }
}

/** The job answered with a refusal of its input (a 4xx for the caller). */
export class JobRefusedError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = 'JobRefusedError';
  }
}

/** The job threw (a bug in the job, not the input): the message is for the server's log. */
export class JobFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobFailedError';
  }
}

interface Job {
  id: number;
  kind: string;
  input: unknown;
  timeoutMs: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  queueTimer?: ReturnType<typeof setTimeout>;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  jobTimer: ReturnType<typeof setTimeout> | null;
  idleTimer: ReturnType<typeof setTimeout> | null;
  dead: boolean;
}

const seconds = (ms: number) => `${(ms / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} s`;

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PoolOptions) {}

  /** Jobs running and waiting, and live workers: for tests and the bench. */
  stats(): { running: number; queued: number; workers: number } {
    return { running: this.slots.filter((s) => s.job).length, queued: this.queue.length, workers: this.slots.length };
  }

  /** Runs one job; rejects with one of the errors above, never hangs on a dead worker. */
  run<T>(kind: string, input: unknown, options: { timeoutMs?: number } = {}): Promise<T> {
    const { name, size, maxQueue, queueTimeoutMs } = this.options;
    if (this.closed) return Promise.reject(new PoolBusyError(`The ${name} is shut down`));
    const running = this.slots.filter((s) => s.job).length;
    if (running >= size && this.queue.length >= maxQueue) {
      return Promise.reject(
        new PoolBusyError(`The server is busy with ${running + this.queue.length} heavy requests (at most ${size} run at once and ${maxQueue} wait); try again in a few seconds`),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = { id: this.nextId++, kind, input, timeoutMs: options.timeoutMs ?? this.options.timeoutMs, resolve: resolve as (value: unknown) => void, reject };
      this.queue.push(job);
      job.queueTimer = setTimeout(() => {
        const at = this.queue.indexOf(job);
        if (at < 0) return;
        this.queue.splice(at, 1);
        reject(new PoolBusyError(`The server stayed busy with other heavy requests for ${seconds(queueTimeoutMs)}; try again in a few seconds`));
      }, queueTimeoutMs);
      this.dispatch();
    });
  }

  /** Terminates every worker; running and queued jobs fail with PoolBusyError. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      clearTimeout(job.queueTimer);
      job.reject(new PoolBusyError(`The ${this.options.name} is shut down`));
    }
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        const job = slot.job;
        this.retire(slot);
        job?.reject(new PoolBusyError(`The ${this.options.name} is shut down`));
        return slot.worker.terminate().catch(() => undefined);
      }),
    );
  }

  private dispatch(): void {
    while (this.queue.length > 0 && this.slots.filter((s) => s.job).length < this.options.size) {
      const job = this.queue.shift()!;
      clearTimeout(job.queueTimer);
      const slot = this.slots.find((s) => !s.job && !s.dead) ?? this.spawn();
      if (!slot) {
        job.reject(new WorkerCrashedError(`The ${this.options.name} could not start a worker`));
        continue;
      }
      this.assign(slot, job);
    }
  }

  private spawn(): Slot | null {
    let worker: Worker;
    try {
      worker = this.options.start();
    } catch {
      return null;
    }
    const slot: Slot = { worker, job: null, jobTimer: null, idleTimer: null, dead: false };
    this.slots.push(slot);
    worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
    worker.on('error', (error: Error & { code?: string }) => {
      const why = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `it ran out of memory (${error.message})` : `it failed: ${error.message}`;
      this.fail(slot, new WorkerCrashedError(`The ${this.options.name} worker stopped before the job finished: ${why}`));
    });
    worker.on('exit', (code) => this.fail(slot, new WorkerCrashedError(`The ${this.options.name} worker exited with code ${code} before the job finished`)));
    return slot;
  }

  private assign(slot: Slot, job: Job): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.job = job;
    slot.worker.ref();
    slot.jobTimer = setTimeout(() => {
      this.fail(slot, new JobTimeoutError(`The request took longer than its budget of ${seconds(job.timeoutMs)} and was stopped`));
    }, job.timeoutMs);
    const message: ToWorker = { type: 'job', id: job.id, kind: job.kind, input: job.input };
    try {
      slot.worker.postMessage(message);
    } catch (error) {
      // Input that cannot cross a thread (a function, a symbol) is the caller's bug.
      this.finish(slot);
      job.reject(new JobFailedError(`The ${job.kind} job's input cannot be sent to a worker: ${(error as Error).message}`));
    }
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    const job = slot.job;
    if (!job || message.id !== job.id) return;
    if (message.type === 'call') {
      const call = this.options.onCall ? this.options.onCall(message.kind, message.input) : Promise.reject(new Error(`no handler for "${message.kind}" calls`));
      call.then(
        (value) => this.reply(slot, job, { type: 'reply', id: job.id, callId: message.callId, ok: true, value }),
        (error: unknown) => this.reply(slot, job, { type: 'reply', id: job.id, callId: message.callId, ok: false, message: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    this.finish(slot);
    if (message.ok) job.resolve(message.value);
    else job.reject(message.refusal ? new JobRefusedError(message.refusal) : new JobFailedError(message.message));
  }

  private reply(slot: Slot, job: Job, message: ToWorker): void {
    // The job may have timed out (its worker gone) while the call was answered.
    if (slot.job === job && !slot.dead) slot.worker.postMessage(message);
  }

  /** The job is over: the worker waits for the next one. */
  private finish(slot: Slot): void {
    if (slot.jobTimer) clearTimeout(slot.jobTimer);
    slot.jobTimer = null;
    slot.job = null;
    if (!slot.dead && !this.closed) {
      slot.worker.unref();
      slot.idleTimer = setTimeout(() => {
        this.retire(slot);
        void slot.worker.terminate().catch(() => undefined);
      }, this.options.idleMs);
      slot.idleTimer.unref();
    }
    queueMicrotask(() => this.dispatch());
  }

  /** The worker is dead or must die: its job (if any) fails with `error`. */
  private fail(slot: Slot, error: Error): void {
    const job = slot.job;
    const alive = !slot.dead;
    this.retire(slot);
    if (alive) void slot.worker.terminate().catch(() => undefined);
    if (job) job.reject(error);
    queueMicrotask(() => this.dispatch());
  }

  private retire(slot: Slot): void {
    slot.dead = true;
    slot.job = null;
    if (slot.jobTimer) clearTimeout(slot.jobTimer);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.jobTimer = null;
    slot.idleTimer = null;
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
  }
}
