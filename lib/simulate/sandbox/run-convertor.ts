/**
 * Runs a task's `convertor_code` on a mock input, in a sandbox.
 *
 * The contract for convertor code:
 * - The code is the BODY of a function of one parameter, `input`, and returns the
 *   converted value: `return { ids: input.data.map((d) => d.id) }`. It is compiled with
 *   `new Function('input', code)` inside the sandbox, so `function` declarations,
 *   `const`, loops and helper functions may all appear before the `return`. A file that
 *   only declares `function convert(input) { ... }` returns nothing: it needs a
 *   `return convert(input)` at the end.
 * - `input` is the mock input, passed in as JSON and parsed inside the sandbox (plain
 *   objects, arrays, strings, finite numbers, booleans and null).
 * - The return value must be JSON: it is serialized with JSON.stringify inside the
 *   sandbox and parsed again here. `undefined`, a Promise, and any function, symbol,
 *   BigInt, NaN or Infinity anywhere in it, or a circular structure, are a `not_json`
 *   finding. (As with JSON, object properties whose value is `undefined` are dropped.)
 * - The code is synchronous. Promise jobs are never run; `async`/`await` are no use.
 * - There is no host access: the sandbox is a bare QuickJS context (ECMAScript built-ins
 *   only) with no std/os modules, no module loader, no `console`, `process`, `require`,
 *   `fetch`, timers or file system. Naming any of them is a ReferenceError, reported as
 *   an `error` finding.
 *
 * - The result is at most `maxOutputBytes` of JSON (default 1 MiB). The size is measured
 *   inside the sandbox and a larger result never leaves it: it is a `too_large` finding.
 *
 * Limits: `timeMs` of running time (default 200 ms) enforced by QuickJS's interrupt
 * handler and, as a backstop, by terminating the worker thread once timeMs + 1 s has
 * passed without an answer; `memoryBytes` (default 32 MiB, plus 4 bytes per byte of
 * input JSON for the parsed input) as the cap of the sandbox's wasm memory, so the
 * total is approximate; `stackBytes` (default 1 MiB) for QuickJS's stack; going deeper is a stack-overflow `error`.
 *
 * The code never runs on the caller's thread: each call is a job for a worker thread
 * (worker-pool.ts), so an endless or memory-hungry convertor cannot stall the server.
 */
import { pythonLine } from './convertor-language';
import { runSandboxJob } from './worker-pool';

export { ConvertorSandboxError, closeSandboxWorkers } from './worker-pool';

export type ConvertorLimits = {
  /** Running time allowed, in ms. Default 200; clamped to 1..60 000. */
  timeMs?: number;
  /** Memory the convertor may use, in bytes. Default 32 MiB; clamped to 1 MiB..1 GiB. */
  memoryBytes?: number;
  /** QuickJS stack size, in bytes. Default 1 MiB (some 4 000 nested calls); clamped to 64 KiB..2 MiB. */
  stackBytes?: number;
  /** Largest result kept, in bytes of JSON. Default 1 MiB; clamped to 1 KiB..16 MiB. */
  maxOutputBytes?: number;
};

export type ConvertorFindingKind = 'error' | 'timeout' | 'memory' | 'not_json' | 'too_large' | 'not_javascript';

/**
 * The result of one run. `ms` is how long the convertor ran inside the sandbox (without
 * starting the worker or loading QuickJS); for a worker stopped by the watchdog or a
 * crashed worker it is the time since the job was handed to the worker.
 */
export type ConvertorOutcome =
  | { ok: true; output: unknown; ms: number; /** The size of the result's JSON, in bytes. */ bytes: number }
  | { ok: false; kind: ConvertorFindingKind; message: string; ms: number };

export const CONVERTOR_DEFAULT_LIMITS = {
  timeMs: 200,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 1024 * 1024,
  maxOutputBytes: 1024 * 1024,
} as const;

/** How much longer than timeMs the parent waits before terminating the worker. */
export const CONVERTOR_WATCHDOG_MARGIN_MS = 1000;

function clamp(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

export function resolveLimits(limits: ConvertorLimits = {}): Required<ConvertorLimits> {
  return {
    timeMs: clamp(limits.timeMs, CONVERTOR_DEFAULT_LIMITS.timeMs, 1, 60_000),
    memoryBytes: clamp(limits.memoryBytes, CONVERTOR_DEFAULT_LIMITS.memoryBytes, 1024 * 1024, 1024 * 1024 * 1024),
    stackBytes: clamp(limits.stackBytes, CONVERTOR_DEFAULT_LIMITS.stackBytes, 64 * 1024, 2 * 1024 * 1024),
    maxOutputBytes: clamp(limits.maxOutputBytes, CONVERTOR_DEFAULT_LIMITS.maxOutputBytes, 1024, 16 * 1024 * 1024),
  };
}

/**
 * Runs `code` (see the contract above) on `input` and reports what happened. Findings
 * (errors, time-outs, memory, non-JSON results) resolve as `{ ok: false }`; the promise
 * rejects only if `input` is not JSON (a TypeError: the caller's mistake) or the sandbox
 * cannot start (ConvertorSandboxError).
 */
export async function runConvertor(code: string, input: unknown, limits?: ConvertorLimits): Promise<ConvertorOutcome> {
  const python = pythonLine(code);
  if (python !== null) {
    return { ok: false, kind: 'not_javascript', message: `it is Python ("${python}"), and convertors run as JavaScript: rewrite it as a JavaScript function body that reads \`input\` and returns the new input; it was not run`, ms: 0 };
  }
  const { timeMs, memoryBytes, stackBytes, maxOutputBytes } = resolveLimits(limits);
  let inputJson: string | undefined;
  try {
    inputJson = input === undefined ? undefined : JSON.stringify(input);
  } catch (error) {
    throw new TypeError(`the convertor input is not JSON: ${(error as Error).message}`);
  }
  const outcome = await runSandboxJob(
    { code, inputJson, timeMs, memoryBytes, stackBytes, maxOutputBytes, interrupt: true },
    timeMs + CONVERTOR_WATCHDOG_MARGIN_MS,
  );
  if (!outcome.ok) return outcome;
  try {
    return { ok: true, output: JSON.parse(outcome.json) as unknown, ms: outcome.ms, bytes: outcome.bytes };
  } catch (error) {
    return { ok: false, kind: 'not_json', message: `the result is not JSON: ${(error as Error).message}`, ms: outcome.ms };
  }
}
