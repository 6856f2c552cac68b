import {
  evaluateStepPath,
  findStepTemplates,
  findVariableReferences,
  parseStatePath,
  parseStepTemplate,
  splitOutputPath,
  statePathSegments,
  stepResolver,
  stripStatePrefix,
  type PlannerTask,
} from '@/lib/plan';
import { storedStage2 } from '@/lib/planning/planning-types';

// What a task of a run is sent: its Stage 2 input (else its arguments) with `${step[i]…}`
// templates and `†state` paths read from the outputs its upstream tasks actually recorded.
// The dry run resolves the same references against mock outputs.

export interface RecordedOutputs {
  /** The plan's task ids in order: `step[n]` names step-<n>, or the n-th task. */
  taskIds: readonly string[];
  /** Outputs of the tasks that succeeded so far in this run (and those it continues from). */
  outputs: ReadonlyMap<string, unknown>;
  /** Each task's `_outputPath`, where it writes `†state`. */
  outputPaths: ReadonlyMap<string, string>;
}

export interface ResolvedInput {
  input: unknown;
  /** Step templates that named no recorded output or no such field: the task cannot run as approved. */
  unresolved: string[];
}

function stateOf(recorded: RecordedOutputs): Map<string, unknown> {
  const state = new Map<string, unknown>();
  for (const [taskId, outputPath] of recorded.outputPaths) {
    if (!recorded.outputs.has(taskId)) continue;
    for (const path of splitOutputPath(outputPath)) state.set(statePathSegments(stripStatePrefix(path)).join('.'), recorded.outputs.get(taskId));
  }
  return state;
}

/** A `†state` path read from the longest written prefix; undefined when nobody wrote it. */
function readState(state: Map<string, unknown>, segments: string[]): { found: boolean; value?: unknown } {
  for (let cut = segments.length; cut > 0; cut--) {
    const root = segments.slice(0, cut).join('.');
    if (!state.has(root)) continue;
    const rest = segments.slice(cut).map((segment) => `.${segment}`).join('');
    const result = evaluateStepPath(state.get(root), rest);
    return result.found ? { found: true, value: result.value } : { found: false };
  }
  return { found: false };
}

const resolvers = new WeakMap<readonly string[], (step: number) => number | undefined>();

/**
 * Which task `step[n]` names, made once per task list: a run resolves every task's input
 * against the same list (its approved revision's), and building it reads the whole list.
 * The lists given here are never changed once built.
 */
function stepsOf(taskIds: readonly string[]): (step: number) => number | undefined {
  let resolver = resolvers.get(taskIds);
  if (!resolver) resolvers.set(taskIds, (resolver = stepResolver(taskIds, new Map(taskIds.map((id, i) => [id, i])))));
  return resolver;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value));

/**
 * The tasks whose recorded outputs `task`'s input can read: its dependencies, the steps its
 * templates name and the tasks that write `†state`. A worker loads only these, not the
 * whole run.
 */
export function referencedTasks(task: PlannerTask, taskIds: readonly string[], outputPaths: ReadonlyMap<string, string>): string[] {
  const stepTask = stepsOf(taskIds);
  const found = new Set([...(task.dependencies ?? []), ...outputPaths.keys()]);
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const template of findStepTemplates(value)) {
        const at = stepTask(template.step);
        if (at !== undefined) found.add(taskIds[at]);
      }
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(storedStage2(task)?.input_data ?? task.arguments);
  found.delete(task.task_id);
  return [...found];
}

export function resolveTaskInput(task: PlannerTask, recorded: RecordedOutputs): ResolvedInput {
  const unresolved: string[] = [];
  const stepTask = stepsOf(recorded.taskIds);
  const state = stateOf(recorded);

  const stepValue = (step: number, path: string, text: string): unknown => {
    const at = stepTask(step);
    const id = at === undefined ? undefined : recorded.taskIds[at];
    if (id === undefined || !recorded.outputs.has(id)) {
      unresolved.push(`${text}: step ${step} has no recorded output`);
      return null;
    }
    const result = evaluateStepPath(recorded.outputs.get(id), path);
    if (result.found) return result.value;
    unresolved.push(`${text}: the output of ${id} has nothing at ${result.at || path}`);
    return null;
  };
  // State nobody wrote is what the plan expects to find when it runs: left as written.
  const stateValue = (segments: string[], text: string): unknown => {
    const result = readState(state, segments);
    return result.found ? result.value : text;
  };

  const resolveString = (text: string): unknown => {
    const whole = parseStepTemplate(text);
    if (whole) return stepValue(whole.step, whole.path, whole.text);
    const wholeState = parseStatePath(text);
    if (wholeState) return stateValue(wholeState.segments, wholeState.text);
    const pieces = [
      ...findStepTemplates(text).map((t) => ({ index: t.index, text: t.text, value: () => stepValue(t.step, t.path, t.text) })),
      ...findVariableReferences(text)
        .filter((r) => r.root === 'state' && r.segments.length)
        .map((r) => ({ index: r.index, text: r.text, value: () => stateValue(r.segments, r.text) })),
    ].sort((a, b) => a.index - b.index);
    if (!pieces.length) return text;
    let out = '';
    let at = 0;
    for (const piece of pieces) {
      if (piece.index < at) continue;
      out += text.slice(at, piece.index) + asText(piece.value());
      at = piece.index + piece.text.length;
    }
    return out + text.slice(at);
  };
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') return resolveString(value);
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    return value;
  };
  return { input: resolve(storedStage2(task)?.input_data ?? task.arguments), unresolved };
}

/** An empty record of outputs that notes whether it was read. */
class UnreadOutputs extends Map<string, unknown> {
  read = false;
  override has(): boolean {
    this.read = true;
    return false;
  }
  override get(): undefined {
    this.read = true;
    return undefined;
  }
}

/**
 * The task's input when it reads no recorded output at all (no `${step…}` template, and no
 * `†state` path while some task of the plan writes state): what it is sent is then the same
 * whatever the run has recorded, so a worker can start it without reading the run's records.
 * Null when the input reads any.
 */
export function resolveFixedInput(task: PlannerTask, taskIds: readonly string[], outputPaths: ReadonlyMap<string, string>): ResolvedInput | null {
  const outputs = new UnreadOutputs();
  const resolved = resolveTaskInput(task, { taskIds, outputs, outputPaths });
  return outputs.read ? null : resolved;
}
