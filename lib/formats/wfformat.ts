/**
 * Reader for WfFormat, the JSON workflow-trace format of the WfCommons project.
 *
 * Reads the task graph and measured runtimes only; mapping them onto Plangate's
 * plan model is another module's job, so this file knows nothing about it.
 *
 * Accepted layouts:
 * - schema 1.5 and later: `workflow.specification.tasks[{ id, name?, parents, children }]`
 *   and `workflow.execution.tasks[{ id, runtimeInSeconds }]`; references are task ids;
 * - schema 1.0–1.4: `workflow.tasks` (1.3, 1.4) or `workflow.jobs` (1.0–1.2), each
 *   `{ name, id?, parents, children?, runtimeInSeconds | runtime }`; references are
 *   task names (ids are accepted too), and the name becomes the task id.
 *
 * Dependencies are declared on both ends in WfFormat (`parents` and `children`),
 * and real files are not always symmetric, so the edge set is their union.
 */

import { z } from 'zod';
import { formatPath } from '@/lib/plan';

export interface WfTask {
  task_id: string;
  description: string;
  /** Ids of the tasks this one waits for (its WfFormat parents). */
  dependencies: string[];
  /** Measured runtime, rounded to whole milliseconds; null when the trace has none. */
  runtime_ms: number | null;
  /** Plangate's own fields for the task, written by its export under the task's `plangate` key. */
  plangate?: Record<string, unknown>;
}

export interface WfWorkflow {
  name: string;
  tasks: WfTask[];
}

export class WfFormatError extends Error {
  constructor(
    message: string,
    /** Every problem found, each with a JSON path such as `workflow.specification.tasks[3].parents[0]`. */
    readonly issues: ReadonlyArray<{ path: string; message: string }>,
  ) {
    super(message);
    this.name = 'WfFormatError';
  }
}

const TaskRef = z.string().min(1, 'Expected a non-empty task reference');
const RefList = z.array(TaskRef).default([]);
const Seconds = z.number().nonnegative();

const ModernDocument = z.object({
  name: z.string().optional(),
  workflow: z.object({
    specification: z.object({
      tasks: z.array(
        z.object({
          id: z.string().min(1, 'Expected a non-empty task id'),
          name: z.string().optional(),
          parents: RefList,
          children: RefList,
          // WfFormat allows extra properties; Plangate's export keeps what a trace has no field for here.
          plangate: z.record(z.string(), z.unknown()).optional(),
        }),
      ),
    }),
    execution: z
      .object({
        tasks: z
          .array(z.object({ id: TaskRef, runtimeInSeconds: Seconds.optional() }))
          .default([]),
      })
      .optional(),
  }),
});

const LegacyTask = z.object({
  name: z.string().min(1, 'Expected a non-empty task name'),
  id: z.string().optional(),
  parents: RefList,
  children: RefList,
  runtimeInSeconds: Seconds.optional(),
  runtime: Seconds.optional(),
});

const LegacyTasksDocument = z.object({
  name: z.string().optional(),
  workflow: z.object({ tasks: z.array(LegacyTask) }),
});

const LegacyJobsDocument = z.object({
  name: z.string().optional(),
  workflow: z.object({ jobs: z.array(LegacyTask) }),
});

// Only decides which layout to validate against, so each gets its own precise errors.
const Envelope = z.object({
  workflow: z.record(z.string(), z.unknown()),
});

type Issue = { path: string; message: string };


function fail(issues: Issue[]): never {
  const shown = issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`);
  const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more` : '';
  throw new WfFormatError(`parseWfFormat: invalid WfFormat document: ${shown.join('; ')}${more}`, issues);
}

function check<T>(schema: z.ZodType<T>, data: unknown): T {
  const result = schema.safeParse(data);
  if (!result.success) {
    fail(result.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })));
  }
  return result.data;
}

interface RawTask {
  id: string;
  description: string;
  parents: string[];
  children: string[];
  runtimeSeconds: number | undefined;
  plangate?: Record<string, unknown>;
  /** JSON path of the task, for error messages. */
  at: string;
}

/**
 * Parses a WfFormat document (any schema version from 1.0) into tasks with
 * dependencies and runtimes. Throws WfFormatError, whose message starts with
 * `parseWfFormat:` and names the JSON path of each problem, when the text is not
 * JSON, does not match the layout, repeats a task id, or references a task that
 * does not exist.
 */
export function parseWfFormat(text: string): WfWorkflow {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new WfFormatError(`parseWfFormat: not valid JSON: ${reason}`, [{ path: '(root)', message: reason }]);
  }

  const envelope = check(Envelope, data);
  let name: string | undefined;
  let raw: RawTask[];
  // Legacy files reference tasks by name; map every alias to the id we emit.
  const aliases = new Map<string, string>();

  if ('specification' in envelope.workflow) {
    const doc = check(ModernDocument, data);
    name = doc.name;
    const runtimes = new Map<string, number | undefined>();
    const execution = doc.workflow.execution?.tasks ?? [];
    const issues: Issue[] = [];
    const specIds = new Set(doc.workflow.specification.tasks.map((t) => t.id));
    execution.forEach((t, k) => {
      const at = `workflow.execution.tasks[${k}].id`;
      if (!specIds.has(t.id)) issues.push({ path: at, message: `unknown task "${t.id}"` });
      else if (runtimes.has(t.id)) issues.push({ path: at, message: `duplicate execution entry for "${t.id}"` });
      else runtimes.set(t.id, t.runtimeInSeconds);
    });
    if (issues.length > 0) fail(issues);
    raw = doc.workflow.specification.tasks.map((t, k) => ({
      id: t.id,
      description: t.name ?? t.id,
      parents: t.parents,
      children: t.children,
      runtimeSeconds: runtimes.get(t.id),
      plangate: t.plangate,
      at: `workflow.specification.tasks[${k}]`,
    }));
  } else if ('tasks' in envelope.workflow || 'jobs' in envelope.workflow) {
    const isTasks = 'tasks' in envelope.workflow;
    const doc = isTasks ? check(LegacyTasksDocument, data) : check(LegacyJobsDocument, data);
    name = doc.name;
    const list = 'tasks' in doc.workflow ? doc.workflow.tasks : doc.workflow.jobs;
    raw = list.map((t, k) => ({
      id: t.name,
      description: t.name,
      parents: t.parents,
      children: t.children,
      runtimeSeconds: t.runtimeInSeconds ?? t.runtime,
      at: `workflow.${isTasks ? 'tasks' : 'jobs'}[${k}]`,
    }));
    for (const t of list) {
      if (t.id !== undefined && !aliases.has(t.id)) aliases.set(t.id, t.name);
    }
  } else {
    fail([
      {
        path: 'workflow',
        message: 'expected "specification" (schema 1.5+), "tasks" (1.3-1.4) or "jobs" (1.0-1.2)',
      },
    ]);
  }

  return { name: name !== undefined && name.length > 0 ? name : 'workflow', tasks: link(raw, aliases) };
}

function link(raw: RawTask[], aliases: Map<string, string>): WfTask[] {
  const byId = new Map<string, WfTask>();
  const tasks: WfTask[] = [];
  const duplicates: Issue[] = [];
  for (const t of raw) {
    if (byId.has(t.id)) {
      duplicates.push({ path: t.at, message: `duplicate task id "${t.id}"` });
      continue;
    }
    const task: WfTask = {
      task_id: t.id,
      description: t.description,
      dependencies: [],
      runtime_ms: t.runtimeSeconds === undefined ? null : Math.round(t.runtimeSeconds * 1000),
      ...(t.plangate === undefined ? {} : { plangate: t.plangate }),
    };
    byId.set(t.id, task);
    tasks.push(task);
  }
  // A repeated id makes every reference to it ambiguous, so linking would only add noise.
  if (duplicates.length > 0) fail(duplicates);

  // Names win over ids for legacy references: names are what those versions used.
  const resolve = (ref: string): WfTask | undefined => {
    const direct = byId.get(ref);
    if (direct !== undefined) return direct;
    const alias = aliases.get(ref);
    return alias === undefined ? undefined : byId.get(alias);
  };
  // Per-task dependency sets so the parents/children union never repeats an edge.
  const depSets = new Map<WfTask, Set<string>>(tasks.map((t) => [t, new Set<string>()]));
  const addEdge = (parent: WfTask, child: WfTask): void => {
    const deps = depSets.get(child)!;
    if (deps.has(parent.task_id)) return;
    deps.add(parent.task_id);
    child.dependencies.push(parent.task_id);
  };

  const issues: Issue[] = [];
  for (const t of raw) {
    const self = byId.get(t.id)!;
    t.parents.forEach((ref, k) => {
      const parent = resolve(ref);
      if (parent === undefined) issues.push({ path: `${t.at}.parents[${k}]`, message: `unknown task "${ref}"` });
      else addEdge(parent, self);
    });
  }
  // Children second, so each task's dependencies keep the order its parents list gives.
  for (const t of raw) {
    const self = byId.get(t.id)!;
    t.children.forEach((ref, k) => {
      const child = resolve(ref);
      if (child === undefined) issues.push({ path: `${t.at}.children[${k}]`, message: `unknown task "${ref}"` });
      else addEdge(self, child);
    });
  }
  if (issues.length > 0) fail(issues);
  return tasks;
}
