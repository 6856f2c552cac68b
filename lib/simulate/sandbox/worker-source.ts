/**
 * The source of the convertor sandbox worker, as a string.
 *
 * It is started with `new Worker(CONVERTOR_WORKER_SOURCE, { eval: true })` rather than
 * from a file next to this one: a Next.js server bundle (Turbopack) does not reliably
 * copy or rewrite a worker file referenced by `new URL('./x.mjs', import.meta.url)`,
 * while a string travels inside whatever bundle imports it. The worker then loads
 * QuickJS with Node's own `require` at run time (`createRequire` from the directories in
 * `workerData.resolveFrom`), so the bundler never sees the QuickJS packages and they
 * load their `.wasm` from their own folder in node_modules, exactly as in plain Node
 * and Vitest. The code is plain CommonJS for Node 20: no TypeScript, no bundler
 * helpers, no template-literal substitutions.
 *
 * Protocol (parent -> worker): `{ type: 'job', id, code, inputJson, timeMs, memoryBytes,
 * stackBytes, maxOutputBytes, interrupt }`. Worker -> parent: `{ type: 'ready' }` once QuickJS is
 * loaded, `{ type: 'fatal', message }` if it cannot be, and `{ type: 'result', id,
 * outcome }` per job, where outcome is `{ ok: true, json, ms, bytes }` or `{ ok: false, kind,
 * message, ms }`; a result of more than maxOutputBytes of JSON is `kind: 'too_large'`
 * (with its `bytes`), measured inside QuickJS so the text itself never leaves the sandbox.
 *
 * Each job gets a fresh WebAssembly instance with its own `WebAssembly.Memory` whose
 * `maximum` is the memory limit: QuickJS's own `setMemoryLimit` is set too, but in this
 * build (no malloc_usable_size under Emscripten) it only counts 8 bytes per block, so on
 * its own it stops one huge allocation and not many ordinary ones. A capped wasm memory
 * makes malloc fail, which QuickJS reports as "out of memory". A fresh instance per job
 * also means nothing one convertor leaves behind is visible to the next.
 */
export const CONVERTOR_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const { readFileSync } = require('node:fs');

const PAGE = 65536;
// The Emscripten build starts with 16 MiB (5 MiB of it C stack); the job's limit comes on top.
const BASE_PAGES = 256;
const USER_LINE_OFFSET = 2; // new Function('input', code) puts the body's first line on line 3

// Runs inside QuickJS. Built-ins are captured before the convertor runs so that it
// cannot change how its own result is checked. Returns 'J' + JSON or 'N' + reason.
const HARNESS = [
  '(function () {',
  '  "use strict";',
  '  var Fn = Function, parse = JSON.parse, stringify = JSON.stringify, isFiniteNumber = Number.isFinite;',
  '  var PromiseCtor = Promise, TypeErrorCtor = TypeError, isArray = Array.isArray, toString = String;',
  '  function where(holder, key) {',
  '    if (key === "") return "the top level";',
  '    return isArray(holder) ? "index " + key : "key " + stringify(key);',
  '  }',
  '  return function (code, inputJson, maxOutputChars) {',
  '    var convert = new Fn("input", code);',
  '    var input = inputJson === undefined ? undefined : parse(inputJson);',
  '    var output = convert(input);',
  '    if (output === undefined) return "Nthe convertor returned undefined; the code is the body of a function of input and must end with return <value>";',
  '    if (output instanceof PromiseCtor) return "Nthe convertor returned a Promise; convertors are synchronous";',
  '    var problem = "";',
  '    var json;',
  '    try {',
  '      json = stringify(output, function (key, value) {',
  '        if (problem === "") {',
  '          var t = typeof value;',
  '          if (t === "function" || t === "symbol" || t === "bigint") problem = "a " + t + " at " + where(this, key);',
  '          else if (t === "number" && !isFiniteNumber(value)) problem = toString(value) + " at " + where(this, key);',
  '        }',
  '        return value;',
  '      });',
  '    } catch (e) {',
  '      if (problem === "" && !(e instanceof TypeErrorCtor)) throw e;',
  '      if (problem === "") problem = toString(e.message);',
  '    }',
  '    if (problem !== "") return "Nthe result is not JSON: " + problem;',
  '    if (typeof json !== "string") return "Nthe result is not JSON";',
  '    if (json.length > maxOutputChars) return "L" + json.length;',
  '    return "J" + json;',
  '  };',
  '})()',
].join('\n');

let core;
let variant;
let wasmModule;

async function load() {
  const failures = [];
  for (const base of workerData.resolveFrom) {
    try {
      const req = createRequire(base);
      const loadedCore = req('quickjs-emscripten-core');
      const loadedVariant = req('@jitl/quickjs-wasmfile-release-sync');
      const wasmPath = req.resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
      wasmModule = await WebAssembly.compile(readFileSync(wasmPath));
      core = loadedCore;
      variant = loadedVariant.default || loadedVariant;
      return;
    } catch (error) {
      failures.push(base + ': ' + (error && error.message));
    }
  }
  throw new Error('cannot load QuickJS (' + failures.join('; ') + ')');
}

function clip(text) {
  const s = String(text);
  return s.length > 500 ? s.slice(0, 500) + '…' : s;
}

function userLine(dumped) {
  if (!dumped || typeof dumped !== 'object') return undefined;
  if (typeof dumped.lineNumber === 'number' && dumped.fileName === '<input>') return dumped.lineNumber - USER_LINE_OFFSET;
  const match = /<input>:(\d+)/.exec(typeof dumped.stack === 'string' ? dumped.stack : '');
  return match ? Number(match[1]) - USER_LINE_OFFSET : undefined;
}

function describe(dumped, lineCount) {
  if (dumped && typeof dumped === 'object' && typeof dumped.message === 'string') {
    const name = typeof dumped.name === 'string' && dumped.name ? dumped.name : 'Error';
    const line = userLine(dumped);
    let where = '';
    if (line !== undefined && line >= 1) where = line > lineCount ? ' (at the end of the code)' : ' (line ' + line + ')';
    return clip(name + ': ' + dumped.message + where);
  }
  let shown;
  try { shown = JSON.stringify(dumped); } catch { shown = undefined; }
  return clip('uncaught ' + (shown === undefined ? String(dumped) : shown));
}

function formatBytes(bytes) {
  if (bytes >= 1024 * 1024) return (Math.round(bytes / (1024 * 1024) * 10) / 10) + ' MB';
  if (bytes >= 1024) return (Math.round(bytes / 1024 * 10) / 10) + ' kB';
  return bytes + ' bytes';
}

function tooLarge(bytes, limit, ms) {
  return { ok: false, kind: 'too_large', message: 'the convertor output is ' + formatBytes(bytes) + ' of JSON, the limit is ' + formatBytes(limit) + '; the output was not kept', ms, bytes };
}

async function runJob(job) {
  const allowance = job.memoryBytes + (job.inputJson === undefined ? 0 : 4 * job.inputJson.length);
  const memory = new WebAssembly.Memory({ initial: BASE_PAGES, maximum: BASE_PAGES + Math.ceil(allowance / PAGE) });
  let lastStderr = '';
  const quickjs = await core.newQuickJSWASMModuleFromVariant(core.newVariant(variant, {
    wasmModule,
    wasmMemory: memory,
    emscriptenModule: { print() {}, printErr(text) { lastStderr = String(text); } },
  }));
  const runtime = quickjs.newRuntime();
  const handles = [];
  let context;
  let started = 0;
  const elapsed = () => (started === 0 ? 0 : Math.round((performance.now() - started) * 10) / 10);
  let interrupted = false;
  try {
    runtime.setMemoryLimit(allowance);
    runtime.setMaxStackSize(job.stackBytes);
    context = runtime.newContext();
    const harness = context.unwrapResult(context.evalCode(HARNESS, 'harness.js'));
    const code = context.newString(job.code);
    const input = job.inputJson === undefined ? context.undefined : context.newString(job.inputJson);
    const maxOutput = context.newNumber(job.maxOutputBytes);
    handles.push(harness, code, input, maxOutput);
    let deadline = Infinity;
    runtime.setInterruptHandler(() => {
      if (job.interrupt && Date.now() >= deadline) interrupted = true;
      return interrupted;
    });
    started = performance.now();
    deadline = Date.now() + job.timeMs;
    const result = context.callFunction(harness, context.undefined, code, input, maxOutput);
    const ms = elapsed();
    handles.push(result.error || result.value);
    if (result.error) {
      runtime.setMemoryLimit(-1);
      let dumped;
      try { dumped = context.dump(result.error); } catch { dumped = undefined; }
      const message = dumped === undefined ? 'the convertor failed and its error could not be read (out of memory?)' : describe(dumped, job.code.split('\n').length);
      if (interrupted) return { ok: false, kind: 'timeout', message: 'the convertor ran longer than ' + job.timeMs + ' ms and was interrupted', ms };
      const outOfMemory = dumped === undefined || (dumped !== null && typeof dumped === 'object' && dumped.name === 'InternalError' && /out of memory/i.test(String(dumped.message)));
      if (outOfMemory) return { ok: false, kind: 'memory', message: 'the convertor exceeded its memory limit (' + message + ')', ms };
      return { ok: false, kind: 'error', message, ms };
    }
    // An oversized result is measured inside QuickJS and never copied out of it, so
    // neither this worker nor the parent ever holds it.
    const text = context.getString(result.value);
    if (text.charAt(0) === 'L') return tooLarge(Number(text.slice(1)), job.maxOutputBytes, ms);
    if (text.charAt(0) === 'J') {
      const json = text.slice(1);
      // The harness counted UTF-16 code units; the limit is on UTF-8 bytes.
      const bytes = Buffer.byteLength(json, 'utf8');
      if (bytes > job.maxOutputBytes) return tooLarge(bytes, job.maxOutputBytes, ms);
      return { ok: true, json, ms, bytes };
    }
    return { ok: false, kind: 'not_json', message: clip(text.slice(1)), ms };
  } catch (error) {
    // Something failed outside QuickJS's own error handling: the host's stack limit, a
    // wasm trap or an Emscripten abort. The instance is dropped below either way.
    const message = clip((error && error.message) || String(error)) + (lastStderr ? ' (' + clip(lastStderr) + ')' : '');
    if (interrupted) return { ok: false, kind: 'timeout', message: 'the convertor ran longer than ' + job.timeMs + ' ms and was interrupted', ms: elapsed() };
    if (/out of memory|cannot enlarge memory/i.test(message)) return { ok: false, kind: 'memory', message: 'the convertor exceeded its memory limit (' + message + ')', ms: elapsed() };
    if (/call stack|stack overflow/i.test(message)) return { ok: false, kind: 'error', message: 'InternalError: stack overflow (' + message + ')', ms: elapsed() };
    return { ok: false, kind: 'error', message: 'the sandbox failed: ' + message, ms: elapsed() };
  } finally {
    // The whole wasm instance and its memory are garbage once this job is done; disposing
    // is tidiness, and after a trap it can abort, which is ignored.
    try {
      for (const handle of handles.reverse()) if (handle.alive) handle.dispose();
      if (context) context.dispose();
      runtime.dispose();
    } catch {
      // ignored: see above
    }
  }
}

load().then(
  () => {
    parentPort.on('message', (message) => {
      if (!message || message.type !== 'job') return;
      runJob(message).then(
        (outcome) => parentPort.postMessage({ type: 'result', id: message.id, outcome }),
        (error) => parentPort.postMessage({
          type: 'result',
          id: message.id,
          outcome: { ok: false, kind: 'error', message: 'the sandbox failed: ' + clip((error && error.message) || String(error)), ms: 0 },
        }),
      );
    });
    parentPort.postMessage({ type: 'ready' });
  },
  (error) => parentPort.postMessage({ type: 'fatal', message: clip((error && error.message) || String(error)) }),
);
`;
