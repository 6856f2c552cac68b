/**
 * Planner Agent plans (seed 001) as a plan format: `{ steps: [{ tool, params,
 * depends_on, parallel }], metadata }` <-> seed 000's TaskData.
 *
 * Why an adapter of its own: a Planner Agent plan names steps by position and also
 * wires them through templates inside params (`"${step[0].data.*.id}"`), so the
 * dependency graph has two sources and the indices inside strings must follow the
 * steps whenever an export reorders them.
 *
 * Mapping (parse):
 * - step i → task `step-<i>`, execution_type "tool", tool_id = tool, arguments = params
 *   verbatim (templates untouched), description = the step's `description` if it has
 *   one (the seed's steps do not) else "Call <tool>";
 * - dependencies = depends_on ∪ every `${step[k]` found in any string inside params,
 *   as seed 001's dependency analysis does; forward references are accepted (the
 *   graph is what matters; export puts them in order);
 * - every other step field (`parallel`, and whatever else a planner adds) → the task's
 *   `parameters`, so export writes it back; `parallel` is a scheduling hint and makes
 *   no edge;
 * - metadata → original_job_data verbatim; metadata.query → job.task_description and
 *   the title. Other top-level keys are not part of the format and are ignored.
 *
 * Mapping (serialize):
 * - steps in a topological order that keeps the plan's own order when it already is
 *   one, so depends_on indices and templates point backwards as in the seed;
 * - a template `${step[k]…}` names the task whose id is `step-k` (the id parse gave
 *   it); it is rewritten to that task's new index. Templates naming no such task are
 *   written unchanged and reported;
 * - `parameters` become step fields again; a custom description is written as the
 *   step's `description`.
 * - Fields a step cannot carry (non-tool execution types, agent_id, function_id,
 *   instructions, convertor_code, estimate_data, mark_replan, status, output, task ids)
 *   are listed in `dropped` rather than stashed under a private key: a Planner Agent
 *   executor would ignore such a key, and the operator should know that.
 */

import { z } from 'zod';
import { buildGraphIndex, findCycle } from '@/lib/graph';
import { formatPath, type PlanDocument, type PlannerTaskInput } from '@/lib/plan';
import { FORMAT_LABELS, FormatError, type ParsedPlan, type PlanFormat, type SerializedPlan } from './format';
import { looksLikeJson, parseJsonText } from './json-text';
import { firstPositions, isObject, orderOf, uncarriedTaskFields, visitStrings } from './step-support';

const ID = 'planner-agent';

const JsonObject = z.record(z.string(), z.unknown());

const Step = z.looseObject({
  tool: z.string().min(1, 'a step names the tool it calls'),
  params: JsonObject.optional(),
  depends_on: z.array(z.number().int().nonnegative()).optional(),
  parallel: z.boolean().optional(),
  description: z.string().optional(),
});

const PlannerAgentPlan = z.object({
  // Seed 001's own schema: "steps is array with >=1 items".
  steps: z.array(Step).min(1, 'a plan has at least one step'),
  metadata: JsonObject.optional(),
});

/** Step fields with a meaning of their own; a task parameter of the same name cannot be written. */
const STEP_FIELDS = new Set(['tool', 'params', 'depends_on', 'description']);

// `${step[` then an index and `]`; the index group is absent when the template is malformed.
const TEMPLATE = /\$\{step\[(?:(\d+)\])?/g;

const stepId = (index: number) => `step-${index}`;
const defaultDescription = (tool: string) => `Call ${tool}`;




function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  }
  return value;
}

/** Step indices the templates in `text` name; null entries are malformed templates. */
function templateIndices(text: string): Array<number | null> {
  if (!text.includes('${step[')) return [];
  return [...text.matchAll(TEMPLATE)].map((m) => (m[1] === undefined ? null : Number(m[1])));
}

function parsePlannerAgent(text: string): ParsedPlan {
  const result = PlannerAgentPlan.safeParse(parseJsonText(ID, text));
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new FormatError(ID, formatPath(issue.path), issue.message);
  }
  const { steps, metadata } = result.data;
  const last = steps.length - 1;
  const range = last === 0 ? 'the plan has only step 0' : `the plan has steps 0 to ${last}`;

  const planned_tasks: PlannerTaskInput[] = steps.map((step, i) => {
    const { tool, params = {}, depends_on = [], description, ...extra } = step;
    const at = `steps[${i}]`;
    const deps = new Set<number>();
    depends_on.forEach((k, j) => {
      const where = `${at}.depends_on[${j}]`;
      if (k > last) throw new FormatError(ID, where, `step ${k} does not exist (${range})`);
      if (k === i) throw new FormatError(ID, where, `step ${i} depends on itself`);
      deps.add(k);
    });
    visitStrings(params, `${at}.params`, (value, where) => {
      for (const k of templateIndices(value)) {
        if (k === null) throw new FormatError(ID, where, 'malformed template: expected ${step[<index>]…}');
        if (k > last) throw new FormatError(ID, where, `template \${step[${k}]…} names step ${k}, which does not exist (${range})`);
        if (k === i) throw new FormatError(ID, where, `template \${step[${k}]…} refers to step ${i}'s own result`);
        deps.add(k);
      }
    });
    return {
      task_id: stepId(i),
      description: description ?? defaultDescription(tool),
      execution_type: 'tool',
      tool_id: tool,
      arguments: params,
      dependencies: [...deps].sort((a, b) => a - b).map(stepId),
      parameters: extra,
    };
  });

  const cycle = findCycle(buildGraphIndex(planned_tasks.map((t, i) => ({ task_id: stepId(i), dependencies: t.dependencies ?? [] }))));
  if (cycle) throw new FormatError(ID, 'steps', `cycle ${[...cycle, cycle[0]].join(' → ')}`);

  const query = typeof metadata?.query === 'string' && metadata.query.trim() !== '' ? metadata.query : undefined;
  return {
    plan: { planned_tasks, original_job_data: metadata ?? null },
    job: query === undefined ? undefined : { task_description: query },
    title: query,
  };
}



function serializePlannerAgent({ plan, job }: Pick<PlanDocument, 'plan' | 'job'>): SerializedPlan {
  const tasks = plan.planned_tasks;
  const dropped: string[] = [];
  const position = firstPositions(tasks, dropped);

  const preds = tasks.map((task, i) => {
    const ps = new Set<number>();
    for (const dep of task.dependencies) {
      const p = position.get(dep);
      if (p === undefined) dropped.push(`task ${task.task_id}: dependency on ${dep}, which is not in the plan`);
      else if (p === i) dropped.push(`task ${task.task_id}: dependency on itself`);
      else ps.add(p);
    }
    visitStrings(task.arguments, 'arguments', (value, where) => {
      for (const k of templateIndices(value)) {
        const note = `task ${task.task_id}: ${where}:`;
        const p = k === null ? undefined : position.get(stepId(k));
        if (k === null) dropped.push(`${note} malformed template written unchanged; the file will not import`);
        else if (p === undefined) dropped.push(`${note} \${step[${k}]…} names task ${stepId(k)}, which is not in the plan; written unchanged`);
        else if (p === i) dropped.push(`${note} \${step[${k}]…} names the task itself; written unchanged`);
        else {
          // Templates are dependencies in this format, so the export gains one the plan may not list.
          if (!task.dependencies.includes(stepId(k))) {
            dropped.push(`${note} \${step[${k}]…} makes it depend on ${stepId(k)}, which the plan does not list as a dependency`);
          }
          ps.add(p);
        }
      }
    });
    return [...ps];
  });

  const ordered = orderOf(preds);
  if ('cycle' in ordered) {
    const ids = ordered.cycle.map((p) => tasks[p].task_id);
    throw new FormatError(ID, 'planned_tasks', `cycle ${[...ids, ids[0]].join(' → ')} (templates count as dependencies)`);
  }
  const newIndex = new Array<number>(tasks.length);
  ordered.order.forEach((p, rank) => (newIndex[p] = rank));

  const steps = ordered.order.map((p) => {
    const task = tasks[p];
    const tool = task.tool_id || task.function_id || task.agent_id || task.task_id;
    const lost = uncarriedTaskFields(task, tool, 'a tool step calling');
    const step: Record<string, unknown> = { tool };
    if (task.description && task.description !== defaultDescription(tool)) step.description = task.description;
    step.params = mapStrings(task.arguments, (value) =>
      value.includes('${step[')
        ? value.replace(TEMPLATE, (match, k: string | undefined) => {
            const target = k === undefined ? undefined : position.get(stepId(Number(k)));
            return target === undefined || target === p ? match : `\${step[${newIndex[target]}]`;
          })
        : value,
    );
    step.depends_on = preds[p].map((q) => newIndex[q]).sort((a, b) => a - b);
    for (const [key, value] of Object.entries(task.parameters)) {
      if (STEP_FIELDS.has(key)) lost.push(`parameters.${key} (the step's own "${key}" has that name)`);
      else if (key === 'parallel' && typeof value !== 'boolean') lost.push('parameters.parallel (not true or false)');
      else step[key] = value;
    }
    if (lost.length > 0) dropped.push(`task ${task.task_id}: ${lost.join(', ')}`);
    return step;
  });

  const renamed = ordered.order.filter((p, rank) => tasks[p].task_id !== stepId(rank)).map((p) => `${tasks[p].task_id} → ${stepId(newIndex[p])}`);
  if (renamed.length > 0) {
    const shown = renamed.slice(0, 5).join(', ') + (renamed.length > 5 ? `, and ${renamed.length - 5} more` : '');
    dropped.push(`task ids: steps are known by position, so importing this file renames ${shown}`);
  }

  const metadata: Record<string, unknown> = { ...(plan.original_job_data ?? {}) };
  if (job.task_description) metadata.query = job.task_description;
  const jobFields = (['job_goal', 'job_objectives', 'job_steerability_data'] as const).filter((f) => Object.keys(job[f]).length > 0);
  if (jobFields.length > 0) dropped.push(`job: ${jobFields.join(', ')}`);
  const planFields = [
    Object.keys(plan.task_input_data).length > 0 && 'task_input_data',
    Object.keys(plan.output_data).length > 0 && 'output_data',
    plan.completed_tasks.length > 0 && 'completed_tasks',
    plan.status !== 'pending' && `status "${plan.status}"`,
  ].filter((f): f is string => typeof f === 'string');
  if (planFields.length > 0) dropped.push(`plan: ${planFields.join(', ')}`);

  const document = Object.keys(metadata).length > 0 ? { steps, metadata } : { steps };
  return { text: `${JSON.stringify(document, null, 2)}\n`, dropped };
}

export const plannerAgentFormat: PlanFormat = {
  id: ID,
  label: FORMAT_LABELS[ID],
  mediaType: 'application/json',
  extension: 'json',

  detect(text) {
    if (!looksLikeJson(text) || !/"steps"\s*:\s*\[/.test(text) || !/"tool"\s*:/.test(text)) return false;
    try {
      const value: unknown = JSON.parse(text);
      return isObject(value) && Array.isArray(value.steps) && value.steps.length > 0 && value.steps.every((s) => isObject(s) && typeof s.tool === 'string');
    } catch {
      // Broken JSON that looks like a plan is ours to parse, so the error names the line.
      return true;
    }
  },

  parse: parsePlannerAgent,
  serialize: serializePlannerAgent,
};
