import { afterAll, describe, expect, it } from 'vitest';
import { closeSandboxWorkers, CONVERTOR_WATCHDOG_MARGIN_MS, resolveLimits, runConvertor } from './run-convertor';
import { runSandboxJob } from './worker-pool';

const input = { data: [{ id: 'a', n: 1 }, { id: 'b', n: 2 }] };

afterAll(async () => {
  await closeSandboxWorkers();
});

/** Counts setInterval ticks while `work` runs, to show the event loop was free. */
async function ticksDuring<T>(work: () => Promise<T>, everyMs = 10): Promise<{ result: T; ticks: number; elapsed: number }> {
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
  }, everyMs);
  const started = performance.now();
  try {
    const result = await work();
    return { result, ticks, elapsed: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

describe('runConvertor', () => {
  it('runs a good convertor and returns its JSON output', async () => {
    const outcome = await runConvertor('return { ids: input.data.map((d) => d.id), total: input.data.reduce((s, d) => s + d.n, 0) }', input);
    expect(outcome).toMatchObject({ ok: true, output: { ids: ['a', 'b'], total: 3 } });
    expect(outcome.ms).toBeGreaterThanOrEqual(0);
  });

  it('allows helper functions and declarations before the return', async () => {
    const code = 'function convert(i) { return i.data.length }\nconst n = convert(input);\nreturn [n, null, "x", true]';
    expect(await runConvertor(code, input)).toMatchObject({ ok: true, output: [2, null, 'x', true] });
  });

  it('passes undefined when there is no input', async () => {
    expect(await runConvertor('return typeof input', undefined)).toMatchObject({ ok: true, output: 'undefined' });
  });

  it('reports a syntax error with a line', async () => {
    const outcome = await runConvertor('const a = 1;\nreturn a +* 2', input);
    expect(outcome).toMatchObject({ ok: false, kind: 'error' });
    if (!outcome.ok) expect(outcome.message).toMatch(/^SyntaxError: .*\(line 2\)$/);
  });

  it('reports a thrown error, and a thrown non-error', async () => {
    const thrown = await runConvertor('\n\nthrow new TypeError("bad input " + input.data.length)', input);
    expect(thrown).toMatchObject({ ok: false, kind: 'error', message: 'TypeError: bad input 2 (line 3)' });
    const thrownString = await runConvertor('throw "nope"', input);
    expect(thrownString).toMatchObject({ ok: false, kind: 'error', message: 'uncaught "nope"' });
  });

  it('stops an infinite loop at the time limit', async () => {
    const started = performance.now();
    const outcome = await runConvertor('while (true) {}', input);
    const elapsed = performance.now() - started;
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' });
    expect(outcome.ms).toBeGreaterThanOrEqual(190);
    // Upper bounds here only prove the call returns rather than hangs; they leave room for a loaded machine.
    expect(elapsed).toBeLessThan(5000);
  });

  it('honours a custom time limit', async () => {
    const outcome = await runConvertor('for (;;) { input = [input] }', input, { timeMs: 50 });
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' });
    expect(outcome.ms).toBeLessThan(1000);
  });

  it('stops unbounded allocation at the memory limit', async () => {
    // A generous time limit, so that it is the memory limit that stops it.
    const started = performance.now();
    const outcome = await runConvertor('const a = []; while (true) a.push(new Array(1e5).fill(1))', input, { timeMs: 5000 });
    expect(outcome).toMatchObject({ ok: false, kind: 'memory' });
    if (!outcome.ok) expect(outcome.message).toMatch(/memory/);
    expect(performance.now() - started).toBeLessThan(8000);
  });

  it('stops a single huge allocation and a smaller memory limit', async () => {
    expect(await runConvertor('return new ArrayBuffer(200 * 1024 * 1024).byteLength', input)).toMatchObject({ ok: false, kind: 'memory' });
    expect(await runConvertor('return new Array(1e6).fill(1).length', input, { memoryBytes: 2 * 1024 * 1024 })).toMatchObject({ ok: false, kind: 'memory' });
    expect(await runConvertor('return new Array(1e6).fill(1).length', input)).toMatchObject({ ok: true, output: 1e6 });
  });

  it('reports runaway recursion as a stack overflow', async () => {
    const outcome = await runConvertor('function f(n) { return f(n + 1) + 1 }\nreturn f(0)', input);
    expect(outcome).toMatchObject({ ok: false, kind: 'error' });
    if (!outcome.ok) expect(outcome.message).toMatch(/stack overflow/);
    expect(await runConvertor('function f(n) { return n === 0 ? 0 : f(n - 1) + 1 }\nreturn f(1000)', input)).toMatchObject({ ok: true, output: 1000 });
  });

  it('has no host access: process, require and friends do not exist', async () => {
    const proc = await runConvertor('return process.env', input);
    expect(proc).toMatchObject({ ok: false, kind: 'error', message: "ReferenceError: 'process' is not defined (line 1)" });
    const req = await runConvertor("return require('fs')", input);
    expect(req).toMatchObject({ ok: false, kind: 'error', message: "ReferenceError: 'require' is not defined (line 1)" });
    const escape = await runConvertor("return this.constructor.constructor('return process')().env", input);
    expect(escape).toMatchObject({ ok: false, kind: 'error' });
    if (!escape.ok) expect(escape.message).toMatch(/ReferenceError/);

    const probe = await runConvertor(
      `const names = ['process', 'require', 'module', 'global', 'fetch', 'console', 'setTimeout', 'std', 'os', 'Deno', 'Bun', 'WebAssembly', 'XMLHttpRequest', 'importScripts'];
       return { types: names.map((n) => typeof globalThis[n]), globals: Object.getOwnPropertyNames(globalThis).sort() }`,
      input,
    );
    expect(probe.ok).toBe(true);
    if (!probe.ok) return;
    const { types, globals } = probe.output as { types: string[]; globals: string[] };
    expect(new Set(types)).toEqual(new Set(['undefined']));
    // Nothing but ECMAScript built-ins on the global object.
    const host = globals.filter((name) => !/^[A-Z]/.test(name));
    expect(host.sort()).toEqual(
      ['decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'eval', 'globalThis', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'undefined', 'unescape'].sort(),
    );

    // Dynamic import has no module loader behind it: it can only return a Promise.
    expect(await runConvertor("return import('node:fs')", input)).toMatchObject({ ok: false, kind: 'not_json' });
  });

  it('does not leak the host environment or state between runs', async () => {
    process.env.PLANGATE_SANDBOX_CANARY = 'secret-canary';
    try {
      const outcome = await runConvertor('globalThis.leftover = 1; return JSON.stringify(Object.getOwnPropertyNames(globalThis))', input);
      expect(outcome.ok).toBe(true);
      if (outcome.ok) expect(String(outcome.output)).not.toContain('secret-canary');
      expect(await runConvertor('return typeof leftover', input)).toMatchObject({ ok: true, output: 'undefined' });
    } finally {
      delete process.env.PLANGATE_SANDBOX_CANARY;
    }
  });

  it('reports results that are not JSON', async () => {
    const notJson = async (code: string) => {
      const outcome = await runConvertor(code, input);
      expect(outcome, code).toMatchObject({ ok: false, kind: 'not_json' });
      return outcome.ok ? '' : outcome.message;
    };
    expect(await notJson('return function () {}')).toMatch(/function at the top level/);
    expect(await notJson('const x = 1')).toMatch(/returned undefined/);
    expect(await notJson('return undefined')).toMatch(/returned undefined/);
    expect(await notJson('return { a: [1, () => 2] }')).toMatch(/function at index 1/);
    expect(await notJson('return { big: 1n }')).toMatch(/bigint at key "big"/);
    expect(await notJson('return { n: 0 / 0 }')).toMatch(/NaN at key "n"/);
    expect(await notJson('return Symbol("s")')).toMatch(/symbol/);
    expect(await notJson('const o = {}; o.self = o; return o')).toMatch(/circular/);
    expect(await notJson('return Promise.resolve(1)')).toMatch(/Promise/);
    // The convertor cannot weaken the check by replacing JSON.stringify.
    expect(await notJson('JSON.stringify = () => "{}"; return () => 1')).toMatch(/function/);
  });

  it('keeps the event loop responsive while a convertor loops', async () => {
    const { result, ticks, elapsed } = await ticksDuring(() => runConvertor('while (true) {}', input, { timeMs: 500 }));
    expect(result).toMatchObject({ ok: false, kind: 'timeout' });
    // 10 ms ticks over ~500 ms: a blocked loop would give 0 or 1.
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(elapsed / 10 / 3));
  });

  it('runs several convertors at once', async () => {
    const outcomes = await Promise.all([
      runConvertor('while (true) {}', input, { timeMs: 100 }),
      runConvertor('return input.data[0].id', input),
      runConvertor('return process', input),
      runConvertor('return input.data[1].id', input),
    ]);
    expect(outcomes.map((o) => (o.ok ? o.output : o.kind))).toEqual(['timeout', 'a', 'error', 'b']);
  });

  it('rejects input that is not JSON', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(runConvertor('return 1', cyclic)).rejects.toThrow(TypeError);
  });

  it('clamps limits', () => {
    expect(resolveLimits()).toEqual({ timeMs: 200, memoryBytes: 32 * 1024 * 1024, stackBytes: 1024 * 1024, maxOutputBytes: 1024 * 1024 });
    expect(resolveLimits({ timeMs: -5, memoryBytes: 1e12, stackBytes: Number.NaN, maxOutputBytes: 1e12 })).toEqual({
      timeMs: 1,
      memoryBytes: 1024 * 1024 * 1024,
      stackBytes: 1024 * 1024,
      maxOutputBytes: 16 * 1024 * 1024,
    });
  });
});

describe('output size', () => {
  it('refuses a result over the limit inside the sandbox: an 8 MB output is a finding, and no output comes back', async () => {
    const outcome = await runConvertor("return 'x'.repeat(8 * 1024 * 1024)", null);
    expect(outcome).toMatchObject({ ok: false, kind: 'too_large' });
    if (outcome.ok) return;
    expect(outcome.message).toBe('the convertor output is 8 MB of JSON, the limit is 1 MB; the output was not kept');
    expect(JSON.stringify(outcome).length).toBeLessThan(1000);
  }, 20_000);

  it('counts UTF-8 bytes, keeps a result within the limit and reports its size', async () => {
    // 400,000 three-byte characters: 1.2 MB of UTF-8 in 400,000 UTF-16 units.
    expect(await runConvertor("return '\u20ac'.repeat(400000)", null)).toMatchObject({ ok: false, kind: 'too_large' });
    const kept = await runConvertor("return 'x'.repeat(1000)", null, { maxOutputBytes: 1024 });
    expect(kept).toMatchObject({ ok: true, bytes: 1002 });
    expect(await runConvertor("return 'x'.repeat(1023)", null, { maxOutputBytes: 1024 })).toMatchObject({ ok: false, kind: 'too_large' });
  }, 20_000);
});

describe('the watchdog', () => {
  it('terminates a worker that does not answer, and the next call still works', async () => {
    // With QuickJS's interrupt handler off, only the parent's watchdog can stop this.
    const job = { code: 'while (true) {}', inputJson: '{}', timeMs: 100, memoryBytes: 32 * 1024 * 1024, stackBytes: 1024 * 1024, maxOutputBytes: 1024 * 1024, interrupt: false };
    const { result, ticks, elapsed } = await ticksDuring(() => runSandboxJob(job, job.timeMs + CONVERTOR_WATCHDOG_MARGIN_MS));
    expect(result).toMatchObject({ ok: false, kind: 'timeout' });
    if (!result.ok) expect(result.message).toMatch(/worker was stopped/);
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(6000);
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(elapsed / 10 / 3));
    expect(await runConvertor('return 42', null)).toMatchObject({ ok: true, output: 42 });
  });

  it('stops a loop of slow built-in calls that the interrupt handler does not reach', async () => {
    const started = performance.now();
    const outcome = await runConvertor('const a = []; for (let i = 0; i < 3e5; i++) a.push((i * 7919) % 1000);\nwhile (true) a.slice().sort()', input);
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' });
    expect(performance.now() - started).toBeLessThan(6000);
  });
});
