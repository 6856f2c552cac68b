/**
 * AgentScope task lists (seed 004: the TaskCreate/TaskUpdate planning tools)  <->
 * seed 000's TaskData.
 *
 * An AgentScope plan is the agent's `tasks_context.tasks`: `[{ id, subject,
 * description, state, owner, blocks, blocked_by, metadata, created_at }]`. Accepted as
 * a bare array (what the brief and TaskList show), as the TaskContext dump
 * `{ "tasks": [...] }`, or inside an AgentState dump `{ "tasks_context": { "tasks": [...] } }`.
 * serialize writes the bare array.
 *
 * Mapping (each task is one PlannerTask, execution_type "agent"):
 * - id → task_id; owner → agent_id; created_at → creation_time.
 * - subject (the imperative one-liner) → description, which is what a plan shows for
 *   a task; description (the detailed requirements) → instructions. Both come back
 *   unchanged, which folding them into one string would not allow.
 * - state → status: pending → "pending", in_progress → "running", completed →
 *   "completed" (seed 000's task statuses); the raw state is kept in
 *   parameters.agentscope_state. metadata → parameters.metadata; fields this adapter
 *   does not know → parameters.agentscope_extra, written back as they were.
 * - Edges: "A blocks B" and "B blocked_by A" are the same edge (B depends on A). The
 *   seed says TaskUpdate keeps both sides in sync but hand edits may not, so the edge
 *   set is the union of both sides, each edge once; serialize writes both sides.
 * - "deleted" is a TaskUpdate operation, not a stored state (seed 004), but a list
 *   exported mid-update may still carry it: such a task is dropped and its id removed
 *   from every other task's blocks and blocked_by, exactly as TaskUpdate does.
 *   Removed, not bridged: the seed names no transitive rewiring.
 */

import { z } from 'zod';
import { buildGraphIndex, findCycle } from '@/lib/graph';
import { formatPath, TaskData, type PlannerTask, type PlannerTaskInput } from '@/lib/plan';
import { ExportReport, sameJson, type CarriedFields, type ExportedDocument } from './export-drops';
import { FORMAT_LABELS, FormatError, type ParsedPlan, type PlanFormat, type SerializedPlan } from './format';
import { looksLikeJson, parseJsonText } from './json-text';

const FORMAT = 'agentscope';

// --- the AgentScope shapes ----------------------------------------------------------

const STATES = ['pending', 'in_progress', 'completed'] as const;
type State = (typeof STATES)[number];
const StoredState = z.enum([...STATES, 'deleted']);

const TaskId = z.string().min(1, 'expected a non-empty task id');
const KNOWN_FIELDS = ['id', 'subject', 'description', 'state', 'status', 'owner', 'blocks', 'blocked_by', 'metadata', 'created_at'];

const AgentScopeTask = z
  .object({
    id: TaskId,
    subject: z.string(),
    description: z.string().default(''),
    state: StoredState.optional(),
    // TaskUpdate's argument and TaskList's column are called "status"; a list written
    // by hand from either may use that name.
    status: StoredState.optional(),
    owner: z.string().nullable().default(null),
    blocks: z.array(TaskId).default(() => []),
    blocked_by: z.array(TaskId).default(() => []),
    metadata: z.record(z.string(), z.unknown()).default(() => ({})),
    created_at: z
      .string()
      .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'expected an ISO 8601 date-time' })
      .optional(),
  })
  .catchall(z.unknown());
type AgentScopeTask = z.infer<typeof AgentScopeTask>;

const TaskList = z.array(AgentScopeTask);
const TaskContextDump = z.object({ tasks: z.array(z.unknown()) });
const AgentStateDump = z.object({ tasks_context: TaskContextDump });

/** The task array and the JSON path prefix that leads to it. */
function taskArray(value: unknown): { items: unknown; prefix: string } {
  if (Array.isArray(value)) return { items: value, prefix: '' };
  const state = AgentStateDump.safeParse(value);
  if (state.success) return { items: state.data.tasks_context.tasks, prefix: 'tasks_context.tasks' };
  const context = TaskContextDump.safeParse(value);
  if (context.success) return { items: context.data.tasks, prefix: 'tasks' };
  throw new FormatError(
    FORMAT,
    '(root)',
    'expected a JSON array of tasks, { "tasks": [...] } or { "tasks_context": { "tasks": [...] } }',
  );
}

const at = (prefix: string, path: ReadonlyArray<PropertyKey>): string => formatPath(path, prefix);

// JSON, not a separator character: ids are arbitrary strings and may contain any separator.
const edgeKey = (from: string, to: string): string => JSON.stringify([from, to]);

const STATUS_OF: Record<State, string> = { pending: 'pending', in_progress: 'running', completed: 'completed' };

// --- parse ------------------------------------------------------------------------

function parseAgentScope(text: string): ParsedPlan {
  const { items, prefix } = taskArray(parseJsonText(FORMAT, text));
  const checked = TaskList.safeParse(items);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new FormatError(FORMAT, at(prefix, issue.path), issue.message);
  }
  const tasks = checked.data;

  const indexOf = new Map<string, number>();
  tasks.forEach((task, k) => {
    const first = indexOf.get(task.id);
    if (first !== undefined) {
      throw new FormatError(FORMAT, at(prefix, [k, 'id']), `task id "${task.id}" is already used by ${at(prefix, [first])}`);
    }
    indexOf.set(task.id, k);
  });
  // `state` is the stored field, so it wins over a "status" alongside it.
  const stateOf = (task: AgentScopeTask) => task.state ?? task.status ?? 'pending';
  const deleted = new Set(tasks.filter((t) => stateOf(t) === 'deleted').map((t) => t.id));

  // Dependencies per live task, each edge once, with the first place that declared it.
  const dependencies = new Map<string, string[]>();
  const declaredAt = new Map<string, string>();
  for (const task of tasks) if (!deleted.has(task.id)) dependencies.set(task.id, []);
  const addEdge = (from: string, to: string, where: string) => {
    const key = edgeKey(from, to);
    if (declaredAt.has(key)) return;
    declaredAt.set(key, where);
    dependencies.get(to)!.push(from);
  };
  tasks.forEach((task, k) => {
    if (deleted.has(task.id)) return;
    const check = (ref: string, field: 'blocks' | 'blocked_by', j: number): string | null => {
      const where = at(prefix, [k, field, j]);
      if (deleted.has(ref)) return null;
      if (!indexOf.has(ref)) throw new FormatError(FORMAT, where, `task ${ref} does not exist`);
      if (ref === task.id) throw new FormatError(FORMAT, where, `task ${ref} cannot ${field === 'blocks' ? 'block' : 'be blocked by'} itself`);
      return where;
    };
    task.blocked_by.forEach((ref, j) => {
      const where = check(ref, 'blocked_by', j);
      if (where !== null) addEdge(ref, task.id, where);
    });
    task.blocks.forEach((ref, j) => {
      const where = check(ref, 'blocks', j);
      if (where !== null) addEdge(task.id, ref, where);
    });
  });

  const live = tasks.flatMap((task) => {
    const state = stateOf(task);
    return state === 'deleted' ? [] : [{ task, state }];
  });
  const cycle = findCycle(buildGraphIndex(live.map(({ task }) => ({ task_id: task.id, dependencies: dependencies.get(task.id)! }))));
  if (cycle) {
    // [a, b, …] means a → b → … → a; report where the closing edge (last → a) was declared.
    const closing = declaredAt.get(edgeKey(cycle[cycle.length - 1], cycle[0])) ?? '';
    throw new FormatError(FORMAT, closing, `cycle ${[...cycle, cycle[0]].join(' → ')}`);
  }

  const planned: PlannerTaskInput[] = live.map(({ task, state }) => {
    const extra = Object.fromEntries(Object.entries(task).filter(([key]) => !KNOWN_FIELDS.includes(key)));
    return {
      task_id: task.id,
      description: task.subject,
      instructions: task.description === '' ? null : task.description,
      execution_type: 'agent',
      agent_id: task.owner,
      status: STATUS_OF[state],
      dependencies: dependencies.get(task.id)!,
      parameters: {
        metadata: task.metadata,
        agentscope_state: state,
        ...(Object.keys(extra).length > 0 ? { agentscope_extra: extra } : {}),
      },
      ...(task.created_at === undefined ? {} : { creation_time: task.created_at }),
    };
  });

  const plan = { planned_tasks: planned, original_job_data: { source: FORMAT } };
  const valid = TaskData.safeParse(plan);
  if (!valid.success) {
    const issue = valid.error.issues[0];
    const [field, index, key] = issue.path;
    if (field === 'planned_tasks' && typeof index === 'number') {
      const source = indexOf.get(live[index].task.id)!;
      const sourceField = key === 'description' ? 'subject' : key === 'instructions' ? 'description' : key;
      throw new FormatError(FORMAT, at(prefix, sourceField === undefined ? [source] : [source, sourceField]), issue.message);
    }
    throw new FormatError(FORMAT, '', issue.message);
  }
  return { plan };
}

// --- serialize --------------------------------------------------------------------

const STATE_OF_STATUS: Record<string, State> = {
  pending: 'pending',
  running: 'in_progress',
  in_progress: 'in_progress',
  completed: 'completed',
  done: 'completed',
};
const OWN_PARAMETERS = new Set(['metadata', 'agentscope_state', 'agentscope_extra']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function stateFor(task: PlannerTask, report: ExportReport): State {
  const mapped = STATE_OF_STATUS[task.status];
  if (mapped) {
    // A synonym ("done", "in_progress") reads back as seed 000's word for it.
    if (STATUS_OF[mapped] !== task.status) report.task(task.task_id, 'status', `status ${task.status} (read back as ${STATUS_OF[mapped]})`);
    return mapped;
  }
  // A status AgentScope has no word for: the last state it knew is the best guess.
  const raw = StoredState.safeParse(task.parameters.agentscope_state);
  const fallback: State = raw.success && raw.data !== 'deleted' ? raw.data : 'pending';
  report.task(task.task_id, 'status', `status ${task.status} (written as state ${fallback})`);
  return fallback;
}

function serializeAgentScope(doc: ExportedDocument): SerializedPlan {
  const { plan } = doc;
  const report = new ExportReport();
  const written = new Set<string>();
  const tasks: PlannerTask[] = [];
  for (const task of plan.planned_tasks) {
    if (written.has(task.task_id)) {
      report.task(task.task_id, 'task_id', 'a second task with this id (AgentScope ids are unique)');
      continue;
    }
    written.add(task.task_id);
    tasks.push(task);
  }

  const blockedBy = new Map<string, string[]>();
  const blocks = new Map<string, string[]>(tasks.map((t) => [t.task_id, []]));
  for (const task of tasks) {
    const deps: string[] = [];
    for (const dep of task.dependencies) {
      if (!written.has(dep)) report.task(task.task_id, 'dependencies', `dependency on unknown task ${dep}`);
      else if (dep === task.task_id) report.task(task.task_id, 'dependencies', 'dependency on itself');
      else if (!deps.includes(dep)) {
        deps.push(dep);
        blocks.get(dep)!.push(task.task_id);
      }
    }
    blockedBy.set(task.task_id, deps);
  }

  const out = tasks.map((task) => {
    const { metadata, agentscope_extra: extra } = task.parameters;
    report.uncarriedTask(task, CARRIES);
    const extras = isPlainObject(extra) ? Object.entries(extra).filter(([key]) => !KNOWN_FIELDS.includes(key)) : [];
    return {
      id: task.task_id,
      subject: task.description ?? '',
      description: task.instructions ?? '',
      state: stateFor(task, report),
      owner: task.agent_id,
      blocks: blocks.get(task.task_id)!,
      blocked_by: blockedBy.get(task.task_id)!,
      metadata: isPlainObject(metadata) ? metadata : {},
      created_at: task.creation_time,
      ...Object.fromEntries(extras),
    };
  });

  report.uncarriedDocument(doc, CARRIES);
  return report.result(`${JSON.stringify(out, null, 2)}\n`);
}

const CARRIES: CarriedFields = {
  task: {
    task_id: true,
    description: true,
    instructions: true,
    agent_id: true,
    dependencies: true,
    // A status AgentScope has no word for is the adapter's to report (stateFor).
    status: true,
    execution_type: (t) => (!t.execution_type || t.execution_type === 'agent' ? [] : [`execution_type ${t.execution_type}`]),
    // The task's metadata, its last AgentScope state and the fields this adapter does not know.
    parameters: (t) => [
      ...(t.parameters.metadata !== undefined && !isPlainObject(t.parameters.metadata) ? ['parameters.metadata (not an object)'] : []),
      ...Object.keys(t.parameters).flatMap((key) => (OWN_PARAMETERS.has(key) ? [] : [`parameters.${key}`])),
    ],
  },
  // Importing records where the plan came from (a plan without original_job_data gains it, and loses nothing);
  // nothing else of the plan has a place in a task list.
  plan: { original_job_data: (p) => (p.original_job_data === null || sameJson(p.original_job_data, { source: FORMAT }) ? [] : ['original_job_data']) },
  job: {},
};

// --- the adapter ------------------------------------------------------------------

const DetectShape = z.array(z.object({ id: z.string(), subject: z.string() })).min(1);

export const agentScopeFormat: PlanFormat = {
  id: FORMAT,
  label: FORMAT_LABELS[FORMAT],
  mediaType: 'application/json',
  extension: 'json',

  detect(text) {
    // The regex keeps JSON.parse away from files that cannot be a task list.
    if (!looksLikeJson(text) || !/"subject"\s*:/.test(text)) return false;
    try {
      const { items } = taskArray(JSON.parse(text));
      return DetectShape.safeParse(items).success;
    } catch {
      return false;
    }
  },

  carries: CARRIES,
  parse: parseAgentScope,
  serialize: serializeAgentScope,
};
