import { WfFormatError, parseWfFormat } from './wfformat';
import { WF_EXTENSION_FIELDS, programOf, taskDataFromWorkflow, wfOrigin } from './wfformat-plan';
import { ExportReport, sameJson, type CarriedFields } from './export-drops';
import { FORMAT_LABELS, FormatError, type PlanFormat } from './format';
import { looksLikeJson } from './json-text';

// WfCommons workflow traces (WfFormat 1.5) as a plan format. A trace carries the graph
// and task names; Plangate's export keeps the fields a tool-call plan needs under each
// task's `plangate` key (WfFormat allows extra properties) and reports the rest.
// It writes no `execution` block: that records a run (its makespan and start time,
// both required), and a plan has not run.

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

  serialize(doc) {
    const { plan } = doc;
    const report = new ExportReport();
    report.uncarried(doc, CARRIES);
    const children = new Map<string, string[]>();
    for (const task of plan.planned_tasks) for (const dep of task.dependencies) children.set(dep, [...(children.get(dep) ?? []), task.task_id]);
    const document = {
      name: plan.task_id,
      description: 'Exported by Plangate',
      schemaVersion: '1.5',
      workflow: {
        specification: {
          tasks: plan.planned_tasks.map((t) => {
            const name = t.description || t.task_id;
            // Only what differs from what a trace's task reads back as, so a trace exports as it came.
            const kept = WF_EXTENSION_FIELDS.filter((f) => !sameJson(t[f], f === 'tool_id' ? programOf(name) : DEFAULTS[f]));
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
      },
    };
    return report.result(`${JSON.stringify(document, null, 2)}\n`);
  },
};
