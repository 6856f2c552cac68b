/**
 * State data-flow calls (seed 002) as a plan format: `[{ _tool, …args,
 * _outputPath: "†state.x" }]` <-> seed 000's TaskData.
 *
 * Why an adapter of its own: this format has no dependency field at all. Its edges
 * are data flow: a call that writes `†state.x` (via `_outputPath`) runs before every
 * call that reads `†state.x` anywhere in its arguments. Parsing derives the graph from
 * those paths; exporting can only express the dependencies data flow implies, and
 * says which others it cannot.
 *
 * Accepted texts: the bare call list; an LLM solution `{ "calls": [...], "output" }`;
 * a Plan message `{ "type": "plan", "plan": [...] }`; a context array of messages
 * holding exactly one Plan message plus any Input, State and Tool messages. JSON
 * only: the seed's JavaScript-literal and commented examples are not accepted as
 * written. Export always writes the bare call list.
 *
 * Path semantics:
 * - a read is any `†state…` or `†input…` reference inside any string in a call's
 *   arguments (whole-string or embedded, in arrays and nested objects);
 * - `_outputPath` is one or more `†state` paths joined by `||` (the call writes one
 *   of them, e.g. a receipt or an error); each counts as written;
 * - a read depends on every other call writing an overlapping path: the same path, a
 *   prefix of it (reading `†state.x.y` needs the writer of `†state.x`), or an
 *   extension of it (reading all of `†state.x` waits for the writer of `†state.x.y`).
 *   Several writers of one path (branches) all become dependencies; array order does
 *   not matter, the plan is a data-flow graph;
 * - `†input…` reads are job inputs, never edges: they are listed in
 *   task_input_data.input_paths, and an Input message's values go to task_input_data.input;
 * - a `†state` read nobody writes is state the plan expects to find when it runs: seed
 *   002 replans against the live State, so a replanned call may read what an earlier
 *   iteration wrote (its own "Handling Failure" example reads †state.error). Such reads
 *   are listed in task_input_data.state_paths; a State message in the text goes to
 *   task_input_data.state. Callers that want a typo caught instead pass
 *   `unwrittenState: 'error'`.
 *
 * Mapping: call i → task `call-<i>`, execution_type "tool", tool_id = _tool,
 * arguments = the other keys verbatim, parameters._outputPath = _outputPath,
 * description "Call <tool>". A solution's output → output_data; Tool and other
 * context messages → original_job_data.context.
 */

import { z } from 'zod';
import { buildGraphIndex, findCycle } from '@/lib/graph';
import { findVariableReferences, formatPath, parseOutputPath, statePathsOverlap, type PlannerTask, type PlannerTaskInput } from '@/lib/plan';
import { ExportReport, type CarriedFields, type ExportedDocument } from './export-drops';
import { FORMAT_LABELS, FormatError, type ParsedPlan, type PlanFormat, type SerializedPlan } from './format';
import { looksLikeJson, parseJsonText } from './json-text';
import { firstPositions, isObject, orderOf, reportRenames, visitStrings } from './step-support';

const ID = 'state-calls';

const Call = z.looseObject({
  _tool: z.string().min(1, 'a call names its tool in _tool'),
  _outputPath: z.string().optional(),
});
const Calls = z.array(Call);

/** Keys of a call that are not arguments. */
const META_KEYS = new Set(['_tool', '_outputPath']);

const callId = (index: number) => `call-${index}`;
const defaultDescription = (tool: string) => `Call ${tool}`;

export interface StateCallsParseOptions {
  /**
   * A `†state` read that no call writes and no State message supplies: `'external'`
   * (the default, as in seed 002: state the plan expects to find when it runs, recorded
   * in task_input_data.state_paths) or `'error'` (strict, to catch typos).
   */
  unwrittenState?: 'error' | 'external';
}

interface Reference {
  path: string;
  segments: string[];
  /** JSON path of the string holding it. */
  where: string;
}





function referencesIn(args: Record<string, unknown>, at: string): { state: Reference[]; input: Reference[] } {
  const state: Reference[] = [];
  const input: Reference[] = [];
  visitStrings(args, at, (text, where) => {
    for (const ref of findVariableReferences(text)) {
      (ref.root === 'state' ? state : input).push({ path: ref.text, segments: ref.segments, where });
    }
  });
  return { state, input };
}

/** The paths an `_outputPath` writes, or null when it is not `†state…` paths joined by `||`. */
function writesOf(outputPath: string): string[][] | null {
  return parseOutputPath(outputPath)?.map((path) => path.segments) ?? null;
}

interface PathNode {
  writers: number[];
  children: Map<string, PathNode>;
}

/**
 * Finds the calls writing a path that overlaps a read. Written paths go into a trie,
 * so a read costs its own length plus the writers it finds: the writers of its
 * prefixes lie on the way down, the writers of it and its extensions below it.
 */
function writerIndex(writes: string[][][]): (segments: string[], reader: number) => number[] {
  const root: PathNode = { writers: [], children: new Map() };
  writes.forEach((paths, call) => {
    for (const path of paths) {
      let node = root;
      for (const segment of path) {
        let next = node.children.get(segment);
        if (!next) node.children.set(segment, (next = { writers: [], children: new Map() }));
        node = next;
      }
      node.writers.push(call);
    }
  });
  return (segments, reader) => {
    const found = new Set<number>();
    let node: PathNode | undefined = root;
    for (const segment of segments) {
      for (const w of node.writers) found.add(w);
      node = node.children.get(segment);
      if (!node) break;
    }
    const stack = node ? [node] : [];
    for (let below = stack.pop(); below; below = stack.pop()) {
      for (const w of below.writers) found.add(w);
      for (const child of below.children.values()) stack.push(child);
    }
    found.delete(reader);
    return [...found].sort((a, b) => a - b);
  };
}

interface Located {
  calls: unknown;
  /** JSON path of the call array; '' for a bare list. */
  at: string;
  input?: Record<string, unknown>;
  state?: Record<string, unknown>;
  output?: unknown;
  /** Context messages that are neither the plan, Input nor State (e.g. Tool messages). */
  context: unknown[];
}

const withoutType = ({ type: _type, ...rest }: Record<string, unknown>) => rest;

/** Finds the call list in any accepted envelope; a string says why there is none. */
function locateCalls(value: unknown): Located | { error: string; at: string } {
  if (Array.isArray(value)) {
    const isContext = value.length > 0 && value.every((m) => isObject(m) && typeof m.type === 'string' && !('_tool' in m));
    if (!isContext) return { calls: value, at: '', context: [] };
    const plans = value.flatMap((m, i) => (m.type === 'plan' ? [i] : []));
    if (plans.length === 0) return { error: 'the context holds no Plan message ({ "type": "plan", "plan": [...] })', at: '' };
    if (plans.length > 1) return { error: `a context holds one Plan message; [${plans[0]}] is the first`, at: `[${plans[1]}]` };
    const located: Located = { calls: value[plans[0]].plan, at: `[${plans[0]}].plan`, context: [] };
    for (const message of value as Array<Record<string, unknown>>) {
      if (message.type === 'input') located.input = { ...located.input, ...withoutType(message) };
      else if (message.type === 'state') located.state = { ...located.state, ...withoutType(message) };
      else if (message.type !== 'plan') located.context.push(message);
    }
    return located;
  }
  if (isObject(value) && 'calls' in value) return { calls: value.calls, at: 'calls', output: value.output, context: [] };
  if (isObject(value) && value.type === 'plan') return { calls: value.plan, at: 'plan', context: [] };
  return {
    error: 'expected a list of tool calls [{ "_tool": … }], an LLM solution { "calls": [...] } or a Plan message { "type": "plan", "plan": [...] }',
    at: '',
  };
}

/** Reads a state-calls text; `stateCallsFormat.parse` is this with the default options. */
export function parseStateCalls(text: string, options: StateCallsParseOptions = {}): ParsedPlan {
  const located = locateCalls(parseJsonText(ID, text));
  if ('error' in located) throw new FormatError(ID, located.at, located.error);
  const { at } = located;
  const result = Calls.safeParse(located.calls);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new FormatError(ID, formatPath(issue.path, at), issue.message);
  }

  const calls = result.data.map((call, i) => {
    const { _tool: tool, _outputPath: outputPath, ...args } = call;
    const where = `${at}[${i}]`;
    const writes = outputPath === undefined ? [] : writesOf(outputPath);
    if (writes === null) {
      throw new FormatError(ID, `${where}._outputPath`, `expected †state paths such as "†state.result", optionally joined by "||"; got "${outputPath}"`);
    }
    return { tool, args, outputPath, writes, reads: referencesIn(args, where) };
  });

  const writersOf = writerIndex(calls.map((c) => c.writes));
  const suppliedState = new Set(Object.keys(located.state ?? {}));
  const inputPaths = new Set<string>();
  const externalPaths = new Set<string>();
  const planned_tasks: PlannerTaskInput[] = calls.map((call, i) => {
    const deps = new Set<number>();
    for (const read of call.reads.input) inputPaths.add(read.path);
    for (const read of call.reads.state) {
      const writers = writersOf(read.segments, i);
      writers.forEach((w) => deps.add(w));
      if (writers.length > 0) continue;
      if (suppliedState.has(read.segments[0]) || (options.unwrittenState ?? 'external') === 'external') {
        externalPaths.add(read.path);
        continue;
      }
      const self = call.writes.some((w) => statePathsOverlap(w, read.segments));
      throw new FormatError(ID, read.where, `reads ${read.path}, which ${self ? 'only this call writes' : 'no call writes'}`);
    }
    return {
      task_id: callId(i),
      description: defaultDescription(call.tool),
      execution_type: 'tool',
      tool_id: call.tool,
      arguments: call.args,
      dependencies: [...deps].sort((a, b) => a - b).map(callId),
      parameters: call.outputPath === undefined ? {} : { _outputPath: call.outputPath },
    };
  });

  const cycle = findCycle(buildGraphIndex(planned_tasks.map((t, i) => ({ task_id: callId(i), dependencies: t.dependencies ?? [] }))));
  if (cycle) throw new FormatError(ID, at, `cycle ${[...cycle, cycle[0]].join(' → ')} (each writes state the next reads)`);

  const task_input_data: Record<string, unknown> = {};
  if (inputPaths.size > 0) task_input_data.input_paths = [...inputPaths].sort();
  if (externalPaths.size > 0) task_input_data.state_paths = [...externalPaths].sort();
  if (located.input) task_input_data.input = located.input;
  if (located.state) task_input_data.state = located.state;
  const { output } = located;
  return {
    plan: {
      planned_tasks,
      task_input_data,
      output_data: isObject(output) ? output : output === undefined || output === null ? {} : { output },
      original_job_data: located.context.length > 0 ? { context: located.context } : null,
    },
  };
}


const toolOf = (task: PlannerTask): string => task.tool_id || task.function_id || task.agent_id || task.task_id;

const CARRIES: CarriedFields = {
  task: {
    // A call has no description; importing names it "Call <tool>" (an empty one loses nothing).
    description: (t) => (!t.description || t.description === defaultDescription(toolOf(t)) ? [] : ['description']),
    execution_type: (t) => (!t.execution_type || t.execution_type === 'tool' ? [] : [`execution_type "${t.execution_type}" (written as a call to "${toolOf(t)}")`]),
    tool_id: (t) => (t.tool_id ? [] : [`tool_id (none; wrote "${toolOf(t)}")`]),
    // Renames, data-flow edges and synthesised output paths are the adapter's to report.
    task_id: true,
    dependencies: true,
    arguments: (t) => Object.keys(t.arguments).flatMap((key) => (META_KEYS.has(key) ? [`arguments.${key} (the call's own meta-property)`] : [])),
    parameters: (t) => Object.keys(t.parameters).flatMap((key) => (key === '_outputPath' ? [] : [`parameters.${key}`])),
  },
  plan: {
    // input_paths and state_paths are derived from the calls on import; an Input or State message is not written.
    task_input_data: (p) => Object.keys(p.task_input_data).flatMap((k) => (k === 'input_paths' || k === 'state_paths' ? [] : [`task_input_data.${k}`])),
  },
  job: {},
};

/** A `†state` segment made from a task id, unlike any in `taken`. */
function freshStateName(taskId: string, taken: Set<string>): string {
  const base = taskId.replace(/[^\w$]/g, '_').replace(/^(?=\d)/, '_') || 'task';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

function serializeStateCalls(doc: ExportedDocument): SerializedPlan {
  const { plan } = doc;
  const tasks = plan.planned_tasks;
  const report = new ExportReport();
  const position = firstPositions(tasks, report);

  const outputPaths = tasks.map((task) => task.parameters._outputPath);
  const writes = outputPaths.map((path, i) => {
    if (path === undefined) return [];
    const paths = typeof path === 'string' ? writesOf(path) : null;
    if (paths === null) report.note(`task ${tasks[i].task_id}: parameters._outputPath ${JSON.stringify(path)} is not a †state path; written unchanged, the file will not import`);
    return paths ?? [];
  });

  const declared = tasks.map((task, i) => {
    const ps = new Set<number>();
    for (const dep of task.dependencies) {
      const p = position.get(dep);
      if (p === undefined) report.task(task.task_id, 'dependencies', `dependency on ${dep}, which is not in the plan`);
      else if (p === i) report.task(task.task_id, 'dependencies', 'dependency on itself');
      else ps.add(p);
    }
    return ps;
  });

  // A task others depend on needs somewhere to put its output; what cannot be
  // synthesised is a read of it, so those dependencies are still reported below.
  const taken = new Set(writes.flatMap((paths) => paths.map((p) => p[0])));
  const synthesised = new Map<number, string>();
  for (const p of [...new Set(declared.flatMap((ps) => [...ps]))].sort((a, b) => a - b)) {
    if (outputPaths[p] !== undefined) continue;
    const name = freshStateName(tasks[p].task_id, taken);
    outputPaths[p] = `†state.${name}`;
    writes[p] = [[name]];
    synthesised.set(p, `†state.${name}`);
    report.task(tasks[p].task_id, 'parameters', `parameters._outputPath gains †state.${name}, so the tasks depending on it can read it`);
  }

  const writersOf = writerIndex(writes);
  const flow = tasks.map((task, i) => {
    const ps = new Set<number>();
    for (const read of referencesIn(task.arguments, 'arguments').state) {
      const writers = writersOf(read.segments, i);
      if (writers.length === 0) report.note(`task ${task.task_id}: ${read.where} reads ${read.path}, which no call writes; it must be in the live state when the plan runs`);
      for (const w of writers) {
        ps.add(w);
        if (!declared[i].has(w)) report.task(task.task_id, 'dependencies', `${read.where} reads ${read.path}, which ${tasks[w].task_id} writes, so it will depend on ${tasks[w].task_id}, which the plan does not list`);
      }
    }
    for (const d of declared[i]) {
      if (ps.has(d)) continue;
      const hint = synthesised.has(d) ? ` (${tasks[d].task_id} now writes ${synthesised.get(d)}; read that to keep the order)` : '';
      report.task(task.task_id, 'dependencies', `dependency on ${tasks[d].task_id} (this format orders calls by data flow, and nothing it reads is written by ${tasks[d].task_id})${hint}`);
    }
    return ps;
  });

  const ordered = orderOf(tasks.map((_, i) => [...new Set([...declared[i], ...flow[i]])]));
  if ('cycle' in ordered) {
    const ids = ordered.cycle.map((p) => tasks[p].task_id);
    throw new FormatError(ID, 'planned_tasks', `cycle ${[...ids, ids[0]].join(' → ')} (data flow counts as dependencies)`);
  }

  const calls = ordered.order.map((p) => {
    const task = tasks[p];
    report.uncarriedTask(task, CARRIES);
    const call: Record<string, unknown> = { _tool: toolOf(task) };
    for (const [key, value] of Object.entries(task.arguments)) if (!META_KEYS.has(key)) call[key] = value;
    if (outputPaths[p] !== undefined) call._outputPath = outputPaths[p];
    return call;
  });

  reportRenames(tasks, ordered.order, callId, 'calls', report);
  report.uncarriedDocument(doc, CARRIES);
  return report.result(`${JSON.stringify(calls, null, 2)}\n`);
}

export const stateCallsFormat: PlanFormat = {
  id: ID,
  label: FORMAT_LABELS[ID],
  mediaType: 'application/json',
  extension: 'json',

  detect(text) {
    if (!looksLikeJson(text) || !/"_tool"\s*:/.test(text)) return false;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Broken JSON that looks like calls is ours to parse, so the error names the line.
      return true;
    }
    const located = locateCalls(value);
    return !('error' in located) && Array.isArray(located.calls) && located.calls.length > 0 && located.calls.every((c) => isObject(c) && typeof c._tool === 'string');
  },

  carries: CARRIES,
  parse: (text) => parseStateCalls(text),
  serialize: serializeStateCalls,
};
