import { namesSteps, renumberStepTemplates, stepNumberOf, stepResolver, type PlannerTask } from '@/lib/plan';

// Seed 001's `${step[n]…}` templates name a task by number: its `step-<n>` id, or else its
// position in the plan. A replacement can leave one pointing at a task that is gone (the
// replaced one) or that moved (a chain shifted the positions after it), so templates are
// re-pointed, as dependencies are rewired.

/**
 * `after` with its templates re-pointed. In a kept task (`isNew` false), a template that
 * named a task with a successor (a replaced task, whose replacement has one exit) names
 * the successor, and one whose task is numbered differently in `after` follows it. In a
 * new task only the first applies: its other templates were written for the new plan. A
 * target `after` cannot number (in a plan of step-<n> ids, a successor with another kind
 * of id) is left as it was, for validation to report. Untouched tasks keep their identity.
 */
export function repointStepTemplates(
  before: readonly PlannerTask[],
  after: readonly PlannerTask[],
  successor: ReadonlyMap<string, string>,
  isNew: (task: PlannerTask) => boolean,
): PlannerTask[] {
  const beforeIds = before.map((t) => t.task_id);
  const resolve = stepResolver(beforeIds, new Map(beforeIds.map((id, i) => [id, i])));
  const afterIds = after.map((t) => t.task_id);
  const position = new Map(afterIds.map((id, i) => [id, i]));
  const named = namesSteps(afterIds);
  const numberOf = named ? stepNumberOf : (id: string) => position.get(id);
  const renumber = (onlyReplaced: boolean) => (n: number) => {
    const i = resolve(n);
    if (i === undefined) return undefined;
    const next = successor.get(beforeIds[i]);
    if (next === undefined && onlyReplaced) return undefined;
    return numberOf(next ?? beforeIds[i]);
  };
  const forKept = renumber(false);
  // New step-<n> ids in a plan that was read by position: new tasks wrote their templates in the new numbering.
  const forNew = named === namesSteps(beforeIds) ? renumber(true) : () => undefined;
  return after.map((task) => {
    const map = isNew(task) ? forNew : forKept;
    const args = renumberStepTemplates(task.arguments, map);
    const parameters = renumberStepTemplates(task.parameters, map);
    return args === task.arguments && parameters === task.parameters ? task : { ...task, arguments: args, parameters };
  });
}
