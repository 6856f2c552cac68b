import type { GraphIndex } from '@/lib/graph';
import {
  evaluateStepPath,
  executionKind,
  findStepTemplates,
  findVariableReferences,
  parseStatePath,
  parseStepTemplate,
  splitOutputPath,
  statePathsOverlap,
  statePathSegments,
  stepResolver,
  stripStatePrefix,
  utf8Bytes,
  type PlannerTask,
} from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import { schemaAccepts, schemaChecker } from '@/lib/registry/schema-checker';
import { storedStage2 } from '@/lib/planning/planning-types';
import { jsonBytesWithin, mockOutput, type MockOutput } from './mock-output';
import type { ConvertorOutcome } from './sandbox/run-convertor';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';
import { DRY_RUN_DATA_LIMITS } from './dry-run-limits';

// What data would flow in a dry run: each task that runs produces a mock output shaped by
// its resource's output schema, and each task's inputs are its arguments with templates
// (${step[i]…}, †state paths) resolved against the mock outputs upstream. What cannot be
// resolved, or resolves to the wrong type for the tool, is a finding on that task.
//
// Nothing here may grow with the plan times the registry: a template such as "a${step[0].x}"
// copies the value it reads, and 20,000 tasks copying a 9 MB mock value would exhaust the
// server. So a mock output is at most DRY_RUN_DATA_LIMITS.maxTaskValueBytes (64 kB, what
// the stored dry run keeps of one value) and is made once per tool; a string built from
// templates is measured before it is built and left unresolved (null, with a finding) if it
// would be over 64 kB; and one dry run builds at most MAX_RESOLVED_BYTES_PER_RUN of such
// text and makes at most MAX_MOCK_BYTES_PER_RUN of mock outputs.

export const FINDING_CODES = [
  'unresolved_reference',
  'type_mismatch',
  'value_too_large',
  'convertor_error',
  'convertor_timeout',
  'convertor_memory',
  'convertor_output',
  /** An estimate too large for the dry run to add up (see task-estimates). */
  'estimate_out_of_range',
  /** Some tasks have no cost estimate, so the total cost is unknown. */
  'cost_unknown',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

export interface Finding {
  task_id: string;
  code: FindingCode;
  message: string;
}

export type ConvertorRunner = (code: string, input: unknown) => Promise<ConvertorOutcome>;

/** Convertors run in a sandbox, one worker each; beyond this many a dry run says it skipped the rest. */
export const MAX_CONVERTORS = 50;
/**
 * The convertor outputs one dry run keeps, in bytes of JSON. Each output is also capped at
 * CONVERTOR_DEFAULT_LIMITS.maxOutputBytes (1 MiB) inside the sandbox; once the outputs
 * kept add up to this, a later one is a finding and its task keeps its unconverted input.
 */
export const MAX_CONVERTOR_OUTPUT_BYTES_PER_RUN = 16 * 1024 * 1024;
/**
 * UTF-8 bytes of text one dry run may build by resolving templates inside strings
 * ("a${step[0].x}", and `*` paths, which make new arrays). Once reached, later such
 * templates are left unresolved (null), with one finding. Each value is also at most
 * DRY_RUN_DATA_LIMITS.maxTaskValueBytes; what was measured of a value refused for its size
 * counts too, so the work of measuring is bounded as well.
 */
export const MAX_RESOLVED_BYTES_PER_RUN = 32 * 1024 * 1024;
/** Bytes of mock outputs one dry run makes (each at most maxTaskValueBytes); later tasks get none (null), and an assumption says so. */
export const MAX_MOCK_BYTES_PER_RUN = 32 * 1024 * 1024;
/** The data flow yields to the event loop after this long, so one big plan cannot stall the server. */
const SLICE_MS = 25;


function formatMegabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB` : `${Math.ceil(bytes / 1024)} kB`;
}

type Template = { text: string; index: number } & ({ step: number; path: string } | { segments: string[] });

/** The step templates and `†state` paths in `text`, in order; a state path inside a step template is part of it. */
function templatesIn(text: string): Template[] {
  const states = findVariableReferences(text).filter((r) => r.root === 'state' && r.segments.length > 0);
  const all: Template[] = [...findStepTemplates(text), ...states].sort((a, b) => a.index - b.index);
  let end = 0;
  return all.filter((t) => t.index >= end && ((end = t.index + t.text.length), true));
}

export interface DataFlow {
  resolvedInputs: unknown[];
  mockOutputs: unknown[];
  findings: Finding[];
  /** What the data flow left out or replaced to stay within its limits. */
  assumptions: string[];
}

/**
 * The UTF-8 bytes of String(value) if at most `limit`, else -1, without making it: an array
 * is its items joined by commas (null and undefined as nothing, nested arrays flattened),
 * an object "[object Object]".
 */
function stringBytesWithin(value: unknown, limit: number): number {
  if (value === null || value === undefined || typeof value !== 'object') {
    if (typeof value !== 'string') return String(value).length;
    const bytes = value.length > limit ? -1 : utf8Bytes(value);
    return bytes <= limit ? bytes : -1;
  }
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      bytes += Math.max(0, item.length - 1);
      if (bytes > limit) return -1;
      for (const element of item) if (element !== null && element !== undefined) stack.push(element);
    } else if (typeof item === 'string') {
      if (bytes + item.length > limit) return -1;
      bytes += utf8Bytes(item);
    } else {
      bytes += item && typeof item === 'object' ? '[object Object]'.length : String(item).length;
    }
    if (bytes > limit) return -1;
  }
  return bytes;
}

/**
 * The state paths a task's `_outputPath` writes. A part without the "†state." prefix
 * ("result") names the same state as with it, as the dry run has always read it.
 */
function statePathsWritten(task: PlannerTask): string[][] {
  const output = (task.parameters as Record<string, unknown>)._outputPath;
  if (typeof output !== 'string') return [];
  return splitOutputPath(output)
    .map((part) => statePathSegments(stripStatePrefix(part)))
    .filter((segments) => segments.length > 0);
}

/** The key a written `†state` path is kept under: its segments, so `.0` and `[0]` are one. */
const stateKey = (segments: readonly string[]) => segments.join('.');

function readState(state: Map<string, unknown>, segments: readonly string[]): { found: boolean; value?: unknown } {
  for (let cut = segments.length; cut > 0; cut--) {
    const root = stateKey(segments.slice(0, cut));
    if (state.has(root)) {
      const rest = segments.slice(cut).map((k) => `.${k}`).join('');
      const result = evaluateStepPath(state.get(root), rest);
      return result.found ? { found: true, value: result.value } : { found: false };
    }
  }
  return { found: false };
}

export async function simulateDataFlow(
  tasks: readonly PlannerTask[],
  index: GraphIndex,
  order: Int32Array,
  ran: (i: number) => boolean,
  registry: Registry,
  runConvertor?: ConvertorRunner,
  /**
   * Findings past this many are counted but never listed (a dry run lists the first
   * DRY_RUN_DATA_LIMITS.maxFindings of all its findings): their message is left empty, and
   * their type checks only ask whether a value passes, which is much cheaper to answer.
   */
  listedFindings = Infinity,
): Promise<DataFlow> {
  const tools = new Map([...registry.tools, ...registry.functions].map((t) => [t.id, t]));
  const stepTask = stepResolver(index.ids, index.idToIndex);
  const resolvedInputs: unknown[] = new Array(tasks.length).fill(null);
  const mockOutputs: unknown[] = new Array(tasks.length).fill(null);
  const findings: Finding[] = [];
  const state = new Map<string, unknown>();
  const written: string[][] = [];
  for (const task of tasks) written.push(...statePathsWritten(task));
  let convertors = 0;
  let convertorBytes = 0;
  let sliceStart = performance.now();
  const { maxTaskValueBytes } = DRY_RUN_DATA_LIMITS;
  let resolvedBytes = 0;
  let resolutionStopped = false;
  // One mock output per tool (they are the same for every task routed to it), within the budgets.
  const toolMocks = new Map<object, MockOutput>();
  let mockBytes = 0;
  let oversizedMockValues = 0;
  let cutMocks = 0;
  let tasksWithoutMock = 0;
  const makeMock = (task: PlannerTask, target: string | null, outputSchema: unknown, cacheKey: object | undefined): unknown => {
    const cached = cacheKey && toolMocks.get(cacheKey);
    if (cached) return cached.value;
    if (mockBytes >= MAX_MOCK_BYTES_PER_RUN) {
      tasksWithoutMock += 1;
      return null;
    }
    const made = mockOutput(task.task_id, target, outputSchema, maxTaskValueBytes);
    mockBytes += made.bytes;
    oversizedMockValues += made.oversizedValues;
    if (made.cut) cutMocks += 1;
    if (cacheKey) toolMocks.set(cacheKey, made);
    return made.value;
  };

  for (const i of order) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    const task = tasks[i];
    if (!ran(i)) continue;
    const finding = (code: FindingCode, message: string) => findings.push({ task_id: task.task_id, code, message });

    /** Counts `bytes` against the dry run's budget of resolved text; false (and the one finding) once it would pass it. */
    const spend = (argument: string, bytes: number): boolean => {
      if (resolvedBytes + bytes > MAX_RESOLVED_BYTES_PER_RUN) {
        resolutionStopped = true;
        finding(
          'value_too_large',
          `Resolving argument "${argument}" would take the text resolved in this dry run past ${formatMegabytes(MAX_RESOLVED_BYTES_PER_RUN)}, the limit per dry run; it and the later templates inside strings are left unresolved (null)`,
        );
        return false;
      }
      resolvedBytes += bytes;
      return true;
    };
    /** A value over maxTaskValueBytes: a finding, and what was measured of it counts against the budget too (so measuring is bounded). */
    const tooLarge = (argument: string, bytes: number): null => {
      finding(
        'value_too_large',
        `The resolved value of argument "${argument}" would be at least ${formatMegabytes(bytes)}; the limit is ${formatMegabytes(maxTaskValueBytes)} per value, so it is left unresolved (null)`,
      );
      spend(argument, Math.min(bytes, maxTaskValueBytes + 1));
      return null;
    };

    const resolveString = (text: string, argument: string): unknown => {
      const whole = parseStepTemplate(text);
      const stepValue = (n: number, path: string, raw: string): unknown => {
        const source = stepTask(n);
        if (source === undefined || !ran(source)) {
          finding('unresolved_reference', `${raw} has no output to read: step ${n} ${source === undefined ? 'does not exist' : 'would not run'}`);
          return null;
        }
        const result = evaluateStepPath(mockOutputs[source], path);
        if (!result.found) {
          finding('unresolved_reference', `${raw}: the output of "${tasks[source].task_id}" has nothing at ${result.at || '(root)'}`);
          return null;
        }
        return result.value;
      };
      if (whole) {
        // A plain path reads a part of the mock output as it is; `*` makes a new array, so it is measured.
        if (!whole.path.includes('*')) return stepValue(whole.step, whole.path, text);
        if (resolutionStopped) return null;
        const value = stepValue(whole.step, whole.path, text);
        const bytes = jsonBytesWithin(value, maxTaskValueBytes);
        if (bytes < 0) return tooLarge(argument, maxTaskValueBytes + 1);
        return spend(argument, bytes) ? value : null;
      }
      const wholeState = parseStatePath(text);
      const stateValue = (segments: readonly string[], raw: string): unknown => {
        const result = readState(state, segments);
        if (result.found) return result.value;
        if (written.some((w) => statePathsOverlap(w, segments))) {
          finding('unresolved_reference', `${raw} is written by an upstream task, but its mock output has no such field`);
        }
        return raw; // state nobody writes is input the plan expects to find
      };
      if (wholeState && wholeState.text === text) return stateValue(wholeState.segments, text);

      // Templates inside text: the pieces are measured as they are read, and the string is
      // built only once it is known to be within maxTaskValueBytes.
      if (!text.includes('step[') && !text.includes('†state')) return text;
      const pieces: string[] = [];
      let bytes = 0;
      let at = 0;
      const add = (piece: string): boolean => {
        if (bytes + piece.length > maxTaskValueBytes) {
          bytes += piece.length; // at least that many bytes
          return false;
        }
        bytes += utf8Bytes(piece);
        pieces.push(piece);
        return bytes <= maxTaskValueBytes;
      };
      let found = false;
      for (const match of templatesIn(text)) {
        if (resolutionStopped) return null;
        found = true;
        if (!add(text.slice(at, match.index))) return tooLarge(argument, bytes);
        const value = 'step' in match ? stepValue(match.step, match.path, match.text) : stateValue(match.segments, match.text);
        if (stringBytesWithin(value, maxTaskValueBytes - bytes) < 0) {
          return tooLarge(argument, Math.max(maxTaskValueBytes + 1, typeof value === 'string' ? bytes + value.length : 0));
        }
        add(typeof value === 'string' ? value : String(value)); // within the limit: measured just above
        at = match.index + match.text.length;
      }
      if (!found) return text;
      if (!add(text.slice(at))) return tooLarge(argument, bytes);
      return spend(argument, bytes) ? pieces.join('') : null;
    };
    const resolve = (value: unknown, argument: string): unknown => {
      if (typeof value === 'string') return resolveString(value, argument || '(input)');
      if (Array.isArray(value)) return value.map((item, i) => resolve(item, `${argument}[${i}]`));
      if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, argument ? `${argument}.${k}` : k)]));
      return value;
    };

    // A Stage 2 answer is the input the task will actually get; without one, its arguments.
    let input = resolve(storedStage2(task)?.input_data ?? task.arguments, '');
    let converted = false;
    const tool = executionKind(task) === 'tool' && task.tool_id ? tools.get(task.tool_id) : undefined;

    if (task.convertor_code && runConvertor) {
      if (++convertors > MAX_CONVERTORS) {
        if (convertors === MAX_CONVERTORS + 1) finding('convertor_error', `More than ${MAX_CONVERTORS} convertors in one dry run; this one and later ones were not run`);
      } else {
        const outcome = await runConvertor(task.convertor_code, input);
        sliceStart = performance.now();
        if (outcome.ok && convertorBytes + outcome.bytes > MAX_CONVERTOR_OUTPUT_BYTES_PER_RUN) {
          finding(
            'convertor_output',
            `convertor_code: the convertor output is ${formatMegabytes(outcome.bytes)} and the convertor outputs of this dry run would reach ${formatMegabytes(convertorBytes + outcome.bytes)}, the limit is ${formatMegabytes(MAX_CONVERTOR_OUTPUT_BYTES_PER_RUN)} per dry run; the output was not kept`,
          );
        } else if (outcome.ok) {
          convertorBytes += outcome.bytes;
          input = outcome.output;
          converted = true;
        }
        else {
          const code: FindingCode = outcome.kind === 'timeout' ? 'convertor_timeout' : outcome.kind === 'memory' ? 'convertor_memory' : outcome.kind === 'not_json' || outcome.kind === 'too_large' ? 'convertor_output' : 'convertor_error';
          finding(code, `convertor_code: ${outcome.message}`);
        }
      }
    }
    resolvedInputs[i] = input;

    if (tool && input && typeof input === 'object') {
      const properties = (tool.input_schema.properties ?? {}) as Record<string, object>;
      for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
        const property = properties[name];
        if (!property || value === null) continue;
        const code = converted ? 'convertor_output' : 'type_mismatch';
        if (findings.length >= listedFindings) {
          if (schemaAccepts(property, value) === false) finding(code, '');
          continue;
        }
        const checked = schemaChecker(property)?.safeParse(value);
        if (checked && !checked.success) {
          finding(code, `"${name}" resolves to ${JSON.stringify(value).slice(0, 80)}, but ${tool.id} expects: ${checked.error.issues[0].message}`);
        }
      }
    }

    const target = task.tool_id ?? task.agent_id ?? task.function_id;
    mockOutputs[i] = makeMock(task, target, tool?.output_schema, tool?.output_schema ? tool : undefined);
    for (const path of statePathsWritten(task)) state.set(stateKey(path), mockOutputs[i]);
  }
  const assumptions: string[] = [];
  const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
  if (oversizedMockValues) {
    assumptions.push(
      `${count(oversizedMockValues, "const, enum or default value of a tool's output schema is", "const, enum or default values of tools' output schemas are")} over ${formatMegabytes(maxTaskValueBytes)} (or nested over 32 levels); the mock outputs are made from the schema's type there instead`,
    );
  }
  if (cutMocks) assumptions.push(`${count(cutMocks, 'mock output is', 'mock outputs are')} cut at ${formatMegabytes(maxTaskValueBytes)}: the rest of it is null or left out`);
  if (tasksWithoutMock) {
    assumptions.push(`mock outputs are made up to ${formatMegabytes(MAX_MOCK_BYTES_PER_RUN)} per dry run; ${count(tasksWithoutMock, 'later task has', 'later tasks have')} none (null)`);
  }
  return { resolvedInputs, mockOutputs, findings, assumptions };
}
