import type { PlannerTask } from '@/lib/plan';
import { WfFormatError, parseWfFormat } from './wfformat';
import { WF_EXTENSION_FIELDS, programOf, taskDataFromWorkflow, wfOrigin } from './wfformat-plan';
import { ExportReport, sameJson, type CarriedFields } from './export-drops';
import { FORMAT_LABELS, FormatError, type PlanFormat } from './format';
import { looksLikeJson } from './json-text';

// WfCommons workflow traces (WfFormat 1.5) as a plan format. A trace carries the graph
// and task names; Plangate's export keeps the fields a tool-call plan needs under each
// task's `plangate` key (WfFormat allows extra properties) and reports the rest.
// WfCommons' own tools read `workflow.execution` unconditionally, so the export writes one
// from the plan's estimates: each task's latency as its runtime (0 without one, with the
// true estimate kept under `plangate`), the critical path as the makespan, and the time of
// export as executedAt. The description says it is a plan, not a run.

const DEFAULTS = { tool_id: null, status: 'pending', mark_replan: false, parameters: {}, output: {}, estimate_data: null };

const CARRIES: CarriedFields = {
  task: {
    task_id: true,
    dependencies: true,
    ...Object.fromEntries(WF_EXTENSION_FIELDS.map((f) => [f, true])),
    // The task's name; an empty description reads back as the task id, losing nothing.
    description: true,
    // Every task of a trace is a program run.
    execution_type: (t) => (!t.execution_type || t.execution_type === 'tool' ? [] : [`execution_type "${t.execution_type}" (read back as "tool")`]),
  },
  plan: {
    // What importing a trace records (a plan without original_job_data gains it, and loses nothing);
    // anything else has no place in the file.
    original_job_data: (p) => (p.original_job_data === null || sameJson(p.original_job_data, wfOrigin(p.task_id)) ? [] : ['original_job_data']),
  },
  job: {},
};

/** The task's latency in ms when its estimate is exactly what a runtime reads back as ({ latency_ms }), else null. */
function readsBackAsRuntime(task: PlannerTask): number | null {
  const estimate = task.estimate_data;
  if (!estimate || typeof estimate !== 'object' || Array.isArray(estimate)) return null;
  const keys = Object.keys(estimate);
  const latency = (estimate as Record<string, unknown>).latency_ms;
  return keys.length === 1 && typeof latency === 'number' && Number.isFinite(latency) && latency >= 0 ? latency : null;
}

/** The longest path through the plan, adding each task's runtime (0 without one); a cycle's tasks are left out. */
function criticalPathMs(tasks: readonly PlannerTask[], runtimes: readonly (number | null)[]): number {
  const index = new Map(tasks.map((t, i) => [t.task_id, i]));
  const waiting = tasks.map(() => 0);
  const dependents = tasks.map((): number[] => []);
  tasks.forEach((task, i) =>
    task.dependencies.forEach((d) => {
      const j = index.get(d);
      if (j === undefined) return;
      waiting[i] += 1;
      dependents[j].push(i);
    }),
  );
  const start = tasks.map(() => 0);
  const ready = waiting.flatMap((n, i) => (n === 0 ? [i] : []));
  let longest = 0;
  // Kahn's order, so a 20,000-task chain needs no recursion.
  for (let k = 0; k < ready.length; k++) {
    const i = ready[k];
    const end = start[i] + (runtimes[i] ?? 0);
    longest = Math.max(longest, end);
    for (const j of dependents[i]) {
      start[j] = Math.max(start[j], end);
      if (--waiting[j] === 0) ready.push(j);
    }
  }
  return longest;
}

export const wfFormat: PlanFormat = {
  id: 'wfformat',
  label: FORMAT_LABELS.wfformat,
  mediaType: 'application/json',
  extension: 'json',
  carries: CARRIES,

  detect(text) {
    return looksLikeJson(text) && /"workflow"\s*:/.test(text) && /"(specification|tasks|jobs)"\s*:/.test(text);
  },

  parse(text) {
    try {
      const workflow = parseWfFormat(text);
      return { plan: taskDataFromWorkflow(workflow), title: workflow.name };
    } catch (error) {
      if (error instanceof WfFormatError) {
        const first = error.issues[0];
        throw new FormatError('wfformat', first?.path ?? '', first?.message ?? error.message);
      }
      throw error;
    }
  },

  serialize(doc, options = {}) {
    const { plan } = doc;
    const report = new ExportReport();
    report.uncarried(doc, CARRIES);
    const children = new Map<string, string[]>();
    for (const task of plan.planned_tasks) {
      for (const dep of task.dependencies) {
        const known = children.get(dep);
        if (known) known.push(task.task_id);
        else children.set(dep, [task.task_id]);
      }
    }
    const runtimes = plan.planned_tasks.map(readsBackAsRuntime);
    const document = {
      name: plan.task_id,
      description: 'Exported by Plangate: a plan, not a run; execution holds its estimated runtimes',
      schemaVersion: '1.5',
      workflow: {
        specification: {
          tasks: plan.planned_tasks.map((t, i) => {
            const name = t.description || t.task_id;
            // Only what differs from what a trace's task reads back as, so a trace exports as it came;
            // an estimate the runtime below does not read back as is kept as it is.
            const kept = WF_EXTENSION_FIELDS.filter((f) =>
              f === 'estimate_data' ? runtimes[i] === null : !sameJson(t[f], f === 'tool_id' ? programOf(name) : DEFAULTS[f]),
            );
            return {
              name,
              id: t.task_id,
              children: children.get(t.task_id) ?? [],
              parents: t.dependencies,
              inputFiles: [],
              outputFiles: [],
              ...(kept.length > 0 ? { plangate: Object.fromEntries(kept.map((f) => [f, t[f]])) } : {}),
            };
          }),
          files: [],
        },
        execution: {
          makespanInSeconds: criticalPathMs(plan.planned_tasks, runtimes) / 1000,
          executedAt: (options.now ?? (() => new Date()))().toISOString(),
          tasks: plan.planned_tasks.map((t, i) => ({ id: t.task_id, runtimeInSeconds: (runtimes[i] ?? 0) / 1000 })),
        },
      },
    };
    return report.result(`${JSON.stringify(document, null, 2)}\n`);
  },
};
