import { buildGraphIndex, findCycle, topologicalOrder } from '@/lib/graph';
import type { PlanDocument, PlannerTask } from '@/lib/plan';
import { groupingError, normaliseSubgraphs } from '@/lib/optimize/subgraph-edits';
import type { Replacement } from './replan-types';
import { repointStepTemplates } from './step-references';

// Applies accepted replacements to a plan, seed 000's "only marked tasks change; all
// dependencies are preserved": the replacement takes the replaced task's place in the
// graph (its dependencies go to the replacement's first tasks, its dependents wait for
// the replacement's last tasks), in the task list, in its subgraph and on the canvas.

export type ReplanErrorCode = 'not_proposed' | 'unknown_task' | 'duplicate_task' | 'duplicate_replacement' | 'id_clash' | 'unknown_dependency' | 'cycle' | 'subgraph_cycle';

/** A replacement that cannot be applied as it stands; the message says which task and why. */
export class ReplanError extends Error {
  constructor(
    readonly code: ReplanErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ReplanError';
  }
}

/** Rows below the entry of a replacement on the canvas, and columns beside it. */
const ROW_GAP = 110;
const COLUMN_GAP = 220;

interface Placed {
  replacement: Replacement;
  replaced: PlannerTask;
  /** The replacement's tasks in dependency order, rewired and linked to the replaced task. */
  tasks: PlannerTask[];
  /** Tasks no other task of the replacement depends on: what the replaced task's dependents now wait for. */
  exits: string[];
}

const quoted = (ids: readonly string[]) => ids.map((id) => `"${id}"`).join(', ');

function acceptedReplacements(doc: PlanDocument, replacements: readonly Replacement[], acceptedTaskIds: readonly string[]): Map<string, Replacement> {
  const proposed = new Map<string, Replacement>();
  for (const r of replacements) {
    if (proposed.has(r.replaces)) throw new ReplanError('duplicate_replacement', `Task "${r.replaces}" has more than one replacement`);
    proposed.set(r.replaces, r);
  }
  const copies = new Map<string, number>();
  for (const t of doc.plan.planned_tasks) copies.set(t.task_id, (copies.get(t.task_id) ?? 0) + 1);
  const accepted = new Map<string, Replacement>();
  for (const id of acceptedTaskIds) {
    const r = proposed.get(id);
    if (!r) throw new ReplanError('not_proposed', `No replacement for task "${id}" was proposed`);
    if (!copies.has(id)) throw new ReplanError('unknown_task', `Task "${id}" is not in the plan`);
    // Which of the copies would be replaced is not knowable; validation asks for unique ids first.
    if (copies.get(id)! > 1) throw new ReplanError('duplicate_task', `Task id "${id}" is used by ${copies.get(id)} tasks in the plan; make the ids unique before replanning it`);
    accepted.set(id, r);
  }
  return accepted;
}

/** Refuses ids already in the plan or used twice, and dependencies the replacement may not name. */
function checkReplacement(r: Replacement, planIds: ReadonlySet<string>, newIds: Map<string, string>): void {
  const own = new Set<string>();
  for (const task of r.tasks) {
    if (planIds.has(task.task_id)) {
      throw new ReplanError('id_clash', `Task id "${task.task_id}" in the replacement for "${r.replaces}" is already used in the plan; a replacement needs new ids`);
    }
    const other = newIds.get(task.task_id);
    if (other !== undefined) {
      const where = other === r.replaces ? 'twice in that replacement' : `in the replacement for "${other}" too`;
      throw new ReplanError('id_clash', `Task id "${task.task_id}" in the replacement for "${r.replaces}" is used ${where}`);
    }
    newIds.set(task.task_id, r.replaces);
    own.add(task.task_id);
  }
  for (const task of r.tasks) {
    for (const dep of task.dependencies) {
      if (dep === task.task_id) throw new ReplanError('cycle', `Task "${task.task_id}" in the replacement for "${r.replaces}" depends on itself`);
      if (dep === r.replaces) {
        throw new ReplanError('unknown_dependency', `Task "${task.task_id}" depends on "${dep}", the task it replaces; the replacement takes over that task's dependencies by itself`);
      }
      if (own.has(dep) || planIds.has(dep)) continue;
      throw new ReplanError(
        'unknown_dependency',
        newIds.has(dep)
          ? `Task "${task.task_id}" in the replacement for "${r.replaces}" depends on "${dep}" of another replacement; name the task that one replaces instead`
          : `Task "${task.task_id}" in the replacement for "${r.replaces}" depends on "${dep}", which is not in the plan`,
      );
    }
  }
}

/** The replacement's tasks, dependencies first (as given when they have a cycle, which the caller refuses). */
function inDependencyOrder(tasks: readonly PlannerTask[]): PlannerTask[] {
  const own = new Set(tasks.map((t) => t.task_id));
  const order = topologicalOrder(buildGraphIndex(tasks.map((t) => ({ task_id: t.task_id, dependencies: t.dependencies.filter((d) => own.has(d)) }))));
  return order ? Array.from(order, (v) => tasks[v]) : [...tasks];
}

function union(first: readonly string[], second: readonly string[]): string[] {
  return [...new Set([...first, ...second])];
}

function place(r: Replacement, replaced: PlannerTask): Placed {
  const ordered = inDependencyOrder(r.tasks);
  const own = new Set(ordered.map((t) => t.task_id));
  const needed = new Set(ordered.flatMap((t) => t.dependencies.filter((d) => own.has(d))));
  const tasks = ordered.map((task) => {
    const entry = !task.dependencies.some((d) => own.has(d));
    // A replacement has not run: whatever run-time state a planner wrote is dropped.
    return {
      ...task,
      status: 'pending',
      output: {},
      main_task_id: replaced.task_id,
      mark_replan: false,
      dependencies: entry ? union(replaced.dependencies, task.dependencies) : [...task.dependencies],
    };
  });
  return { replacement: r, replaced, tasks, exits: ordered.filter((t) => !needed.has(t.task_id)).map((t) => t.task_id) };
}

/** `deps` with each replaced task swapped, in place, for its replacement's exits. */
function rewire(deps: string[], exitsOf: ReadonlyMap<string, string[]>): string[] {
  if (!deps.some((d) => exitsOf.has(d))) return deps;
  return [...new Set(deps.flatMap((d) => exitsOf.get(d) ?? [d]))];
}

/** Entry at the replaced task's position, each further step of the chain one row below, siblings side by side. */
function positionsOf(placed: Placed, at: { x: number; y: number }): Record<string, { x: number; y: number }> {
  const depth = new Map<string, number>();
  const perRow = new Map<number, number>();
  const out: Record<string, { x: number; y: number }> = {};
  for (const task of placed.tasks) {
    const d = Math.max(-1, ...task.dependencies.map((dep) => depth.get(dep) ?? -1)) + 1;
    depth.set(task.task_id, d);
    const column = perRow.get(d) ?? 0;
    perRow.set(d, column + 1);
    out[task.task_id] = { x: at.x + column * COLUMN_GAP, y: at.y + d * ROW_GAP };
  }
  return out;
}

function refuseNewCycle(before: readonly PlannerTask[], after: readonly PlannerTask[], newIds: ReadonlyMap<string, string>): void {
  const cycle = findCycle(buildGraphIndex(after));
  if (!cycle) return;
  // A cycle the plan already had is validation's to report, not this replacement's fault.
  if (!cycle.some((id) => newIds.has(id)) && findCycle(buildGraphIndex(before))) return;
  const culprits = [...new Set(cycle.map((id) => newIds.get(id)).filter((id): id is string => id !== undefined))];
  throw new ReplanError(
    'cycle',
    `The replacement${culprits.length === 1 ? '' : 's'} for ${quoted(culprits.length ? culprits : [...new Set(newIds.values())])} would create a cycle: ${[...cycle, cycle[0]].join(' → ')}`,
  );
}

/**
 * The plan with the accepted replacements in place of the tasks they replace; every other
 * proposed replacement is left out and its task stays as it is. Pure: `doc` is not changed,
 * and tasks the replacement does not touch are shared with it.
 *
 * Throws ReplanError when a replacement reuses an id, names a dependency it may not (a
 * task outside the plan, the task it replaces, a task of another replacement), or when
 * the result would have a cycle among tasks or among subgraphs.
 */
export function applyReplacements(doc: PlanDocument, replacements: readonly Replacement[], acceptedTaskIds: readonly string[]): PlanDocument {
  const accepted = acceptedReplacements(doc, replacements, acceptedTaskIds);
  if (accepted.size === 0) return doc;
  const before = doc.plan.planned_tasks;
  const planIds = new Set(before.map((t) => t.task_id));
  const newIds = new Map<string, string>();
  for (const r of accepted.values()) checkReplacement(r, planIds, newIds);

  const placed = new Map<string, Placed>();
  for (const task of before) {
    const r = accepted.get(task.task_id);
    if (r) placed.set(task.task_id, place(r, task));
  }
  const exitsOf = new Map([...placed].map(([id, p]) => [id, p.exits]));
  const rewired = before.flatMap((task) => {
    const p = placed.get(task.task_id);
    if (p) return p.tasks.map((t) => ({ ...t, dependencies: rewire(t.dependencies, exitsOf) }));
    const dependencies = rewire(task.dependencies, exitsOf);
    return dependencies === task.dependencies ? [task] : [{ ...task, dependencies }];
  });
  const successor = new Map([...placed].filter(([, p]) => p.exits.length === 1).map(([id, p]) => [id, p.exits[0]]));
  const tasks = repointStepTemplates(before, rewired, successor, (task) => newIds.has(task.task_id));
  refuseNewCycle(before, tasks, newIds);

  const positions = { ...doc.view.positions };
  for (const [id, p] of placed) {
    const at = positions[id];
    delete positions[id];
    if (at) Object.assign(positions, positionsOf(p, at));
  }
  const next: PlanDocument = { ...doc, plan: { ...doc.plan, planned_tasks: tasks }, view: { ...doc.view, positions } };
  if (doc.subgraphs.length === 0) return next;

  const groups = doc.subgraphs.map((sg) => ({
    subgraph_id: sg.subgraph_id,
    task_ids: sg.task_ids.flatMap((id) => placed.get(id)?.tasks.map((t) => t.task_id) ?? [id]),
  }));
  const subgraphs = normaliseSubgraphs(tasks, groups);
  const error = groupingError(tasks, subgraphs);
  if (error && !groupingError(before, doc.subgraphs)) throw new ReplanError('subgraph_cycle', `The replacement breaks the plan's subgraphs: ${error}`);
  return { ...next, subgraphs };
}
