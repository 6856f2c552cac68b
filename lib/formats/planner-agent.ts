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
import { formatPath, renumberStepTemplates, stepTemplateNumbers, type PlannerTask, type PlannerTaskInput } from '@/lib/plan';
import { ExportReport, type CarriedFields, type ExportedDocument } from './export-drops';
import { FORMAT_LABELS, FormatError, type ParsedPlan, type PlanFormat, type SerializedPlan, type SerializeOptions } from './format';
import { looksLikeJson, parseJsonText } from './json-text';
import { firstPositions, isObject, orderOf, reportRenames, visitStrings } from './step-support';

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

const stepId = (index: number) => `step-${index}`;
const defaultDescription = (tool: string) => `Call ${tool}`;




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
      for (const k of stepTemplateNumbers(value)) {
        if (k === undefined) throw new FormatError(ID, where, 'malformed template: expected ${step[<index>]…}');
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



/** A step's description reads back as "Call <tool>" when absent; the tool is the first id the task has. */
const toolOf = (task: PlannerTask): string => task.tool_id || task.function_id || task.agent_id || task.task_id;

const CARRIES: CarriedFields = {
  task: {
    // Written when it is not "Call <tool>", which an empty one reads back as (losing nothing).
    description: true,
    execution_type: (t) => (!t.execution_type || t.execution_type === 'tool' ? [] : [`execution_type "${t.execution_type}" (written as a tool step calling "${toolOf(t)}")`]),
    tool_id: (t) => (t.tool_id ? [] : [`tool_id (none; wrote "${toolOf(t)}")`]),
    // Renames and template-made edges are the adapter's to report: they depend on the whole plan.
    task_id: true,
    dependencies: true,
    arguments: true,
    parameters: (t) =>
      Object.entries(t.parameters).flatMap(([key, value]) =>
        STEP_FIELDS.has(key)
          ? [`parameters.${key} (the step's own "${key}" has that name)`]
          : key === 'parallel' && typeof value !== 'boolean'
            ? ['parameters.parallel (not true or false)']
            : [],
      ),
  },
  plan: {
    // Written as metadata, which gains a timestamp and the job's query on the way (see serialize).
    original_job_data: true,
  },
  job: { task_description: true },
};

function serializePlannerAgent(doc: ExportedDocument, options: SerializeOptions = {}): SerializedPlan {
  const { plan, job } = doc;
  const tasks = plan.planned_tasks;
  const report = new ExportReport();
  const position = firstPositions(tasks, report);

  const preds = tasks.map((task, i) => {
    const ps = new Set<number>();
    for (const dep of task.dependencies) {
      const p = position.get(dep);
      if (p === undefined) report.task(task.task_id, 'dependencies', `dependency on ${dep}, which is not in the plan`);
      else if (p === i) report.task(task.task_id, 'dependencies', 'dependency on itself');
      else ps.add(p);
    }
    visitStrings(task.arguments, 'arguments', (value, where) => {
      for (const k of stepTemplateNumbers(value)) {
        const note = `task ${task.task_id}: ${where}:`;
        const p = k === undefined ? undefined : position.get(stepId(k));
        if (k === undefined) report.note(`${note} malformed template written unchanged; the file will not import`);
        else if (p === undefined) report.note(`${note} \${step[${k}]…} names task ${stepId(k)}, which is not in the plan; written unchanged`);
        else if (p === i) report.note(`${note} \${step[${k}]…} names the task itself; written unchanged`);
        else {
          // Templates are dependencies in this format, so the export gains one the plan may not list.
          if (!task.dependencies.includes(stepId(k))) {
            report.task(task.task_id, 'dependencies', `${where}: \${step[${k}]…} makes it depend on ${stepId(k)}, which the plan does not list as a dependency`);
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
    report.uncarriedTask(task, CARRIES);
    const tool = toolOf(task);
    const step: Record<string, unknown> = { tool };
    if (task.description && task.description !== defaultDescription(tool)) step.description = task.description;
    // Templates follow the steps they name; those naming no other task are written unchanged.
    step.params = renumberStepTemplates(task.arguments, (k) => {
      const target = position.get(stepId(k));
      return target === undefined || target === p ? undefined : newIndex[target];
    });
    // A step without dependencies leaves depends_on out, as the seed's own examples mostly do.
    const dependsOn = preds[p].map((q) => newIndex[q]).sort((a, b) => a - b);
    if (dependsOn.length > 0) step.depends_on = dependsOn;
    for (const [key, value] of Object.entries(task.parameters)) {
      if (!STEP_FIELDS.has(key) && (key !== 'parallel' || typeof value === 'boolean')) step[key] = value;
    }
    return step;
  });

  reportRenames(tasks, ordered.order, stepId, 'steps', report);

  const metadata: Record<string, unknown> = { ...(plan.original_job_data ?? {}) };
  // Seed 001's metadata has a timestamp: the plan's own when it came with one, else the export's.
  // Both read back into original_job_data: a change to one the plan has, a filling-in of one it lacks.
  const had = plan.original_job_data !== null;
  if (typeof metadata.timestamp !== 'string') {
    metadata.timestamp = (options.now ?? (() => new Date()))().toISOString();
    if (had) report.plan('original_job_data', 'original_job_data gains metadata.timestamp, the time of export');
  }
  if (job.task_description && metadata.query !== job.task_description) {
    if (had) report.plan('original_job_data', 'original_job_data gains metadata.query, the job\'s task description');
    metadata.query = job.task_description;
  } else if (!job.task_description && typeof metadata.query === 'string' && metadata.query.trim() !== '') {
    report.job('task_description', 'task_description (empty; read back from metadata.query)');
  } else if (typeof metadata.query !== 'string') {
    // clear-ai-v2's PlanSchema requires metadata.query beside the timestamp: a plan without a
    // job description says so with an empty one, which reads back as no description.
    metadata.query = '';
    if (had) report.plan('original_job_data', 'original_job_data gains metadata.query (empty: the plan has no job description)');
  }
  report.uncarriedDocument(doc, CARRIES);

  return report.result(`${JSON.stringify({ steps, metadata }, null, 2)}\n`);
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

  carries: CARRIES,
  parse: parsePlannerAgent,
  serialize: serializePlannerAgent,
};
