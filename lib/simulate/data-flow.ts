import type { GraphIndex } from '@/lib/graph';
import { STEP_TEMPLATE, evaluateStepPath, executionKind, stepResolver, type PlannerTask } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import { schemaChecker } from '@/lib/registry/schema-checker';
import { storedStage2 } from '@/lib/planning/planning-types';
import { mockOutput } from './mock-output';
import type { ConvertorOutcome } from './sandbox/run-convertor';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';

// What data would flow in a dry run: each task that runs produces a mock output shaped by
// its resource's output schema, and each task's inputs are its arguments with templates
// (${step[i]…}, †state paths) resolved against the mock outputs upstream. What cannot be
// resolved, or resolves to the wrong type for the tool, is a finding on that task.

export const FINDING_CODES = ['unresolved_reference', 'type_mismatch', 'convertor_error', 'convertor_timeout', 'convertor_memory', 'convertor_output'] as const;
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
/** The data flow yields to the event loop after this long, so one big plan cannot stall the server. */
const SLICE_MS = 25;


function formatMegabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB` : `${Math.ceil(bytes / 1024)} kB`;
}

const STATE_PATH = /†state((?:\.[\w-]+)+)/g;
const WHOLE_STEP = /^\$\{\s*step\[(\d+)\]([^}]*)\}$/;
const WHOLE_STATE = /^†state((?:\.[\w-]+)+)$/;

export interface DataFlow {
  resolvedInputs: unknown[];
  mockOutputs: unknown[];
  findings: Finding[];
}

function readState(state: Map<string, unknown>, path: string): { found: boolean; value?: unknown } {
  const keys = path.slice(1).split('.');
  for (let cut = keys.length; cut > 0; cut--) {
    const root = keys.slice(0, cut).join('.');
    if (state.has(root)) {
      const rest = keys.slice(cut).map((k) => `.${k}`).join('');
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
): Promise<DataFlow> {
  const tools = new Map([...registry.tools, ...registry.functions].map((t) => [t.id, t]));
  const stepTask = stepResolver(index.ids, index.idToIndex);
  const resolvedInputs: unknown[] = new Array(tasks.length).fill(null);
  const mockOutputs: unknown[] = new Array(tasks.length).fill(null);
  const findings: Finding[] = [];
  const state = new Map<string, unknown>();
  const written = new Set<string>();
  for (const task of tasks) {
    const output = (task.parameters as Record<string, unknown>)._outputPath;
    if (typeof output === 'string') for (const path of output.split('||')) written.add(path.trim().replace(/^†state\./, ''));
  }
  let convertors = 0;
  let convertorBytes = 0;
  let sliceStart = performance.now();

  for (const i of order) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    const task = tasks[i];
    if (!ran(i)) continue;
    const finding = (code: FindingCode, message: string) => findings.push({ task_id: task.task_id, code, message });

    const resolveString = (text: string): unknown => {
      const whole = WHOLE_STEP.exec(text);
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
      if (whole) return stepValue(Number(whole[1]), whole[2], text);
      const wholeState = WHOLE_STATE.exec(text);
      const stateValue = (path: string, raw: string): unknown => {
        const result = readState(state, path);
        if (result.found) return result.value;
        if ([...written].some((w) => `.${w}` === path || path.startsWith(`.${w}.`) || w.startsWith(path.slice(1)))) {
          finding('unresolved_reference', `${raw} is written by an upstream task, but its mock output has no such field`);
        }
        return raw; // state nobody writes is input the plan expects to find
      };
      if (wholeState) return stateValue(wholeState[1], text);
      return text
        .replace(STEP_TEMPLATE, (raw, n: string, path: string) => String(stepValue(Number(n), path, raw)))
        .replace(STATE_PATH, (raw, path: string) => String(stateValue(path, raw)));
    };
    const resolve = (value: unknown): unknown => {
      if (typeof value === 'string') return resolveString(value);
      if (Array.isArray(value)) return value.map(resolve);
      if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
      return value;
    };

    // A Stage 2 answer is the input the task will actually get; without one, its arguments.
    let input = resolve(storedStage2(task)?.input_data ?? task.arguments);
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
        const checked = schemaChecker(property)?.safeParse(value);
        if (checked && !checked.success) {
          finding(converted ? 'convertor_output' : 'type_mismatch', `"${name}" resolves to ${JSON.stringify(value).slice(0, 80)}, but ${tool.id} expects: ${checked.error.issues[0].message}`);
        }
      }
    }

    const target = task.tool_id ?? task.agent_id ?? task.function_id;
    mockOutputs[i] = mockOutput(task.task_id, target, tool?.output_schema);
    const outputPath = (task.parameters as Record<string, unknown>)._outputPath;
    if (typeof outputPath === 'string') for (const path of outputPath.split('||')) state.set(path.trim().replace(/^†state\./, ''), mockOutputs[i]);
  }
  return { resolvedInputs, mockOutputs, findings };
}
