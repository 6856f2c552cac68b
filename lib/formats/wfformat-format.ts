import { readEstimate } from '@/lib/plan';
import { WfFormatError, parseWfFormat } from './wfformat';
import { taskDataFromWorkflow } from './wfformat-plan';
import { FORMAT_LABELS, FormatError, type PlanFormat } from './format';
import { looksLikeJson } from './json-text';

// WfCommons workflow traces (WfFormat 1.5) as a plan format. Traces carry the graph,
// names and runtimes; everything else a task has is reported as dropped on export.

export const wfFormat: PlanFormat = {
  id: 'wfformat',
  label: FORMAT_LABELS.wfformat,
  mediaType: 'application/json',
  extension: 'json',

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

  serialize({ plan }) {
    const children = new Map<string, string[]>();
    for (const task of plan.planned_tasks) for (const dep of task.dependencies) children.set(dep, [...(children.get(dep) ?? []), task.task_id]);
    const dropped: string[] = [];
    for (const task of plan.planned_tasks) {
      const lost = (['agent_id', 'function_id', 'instructions', 'convertor_code'] as const).filter((f) => task[f]);
      if (Object.keys(task.arguments).length) lost.push('arguments' as never);
      if (lost.length) dropped.push(`task ${task.task_id}: ${lost.join(', ')}`);
    }
    const latency = plan.planned_tasks.map((t) => readEstimate(t.estimate_data).latency_ms ?? 0);
    const document = {
      name: plan.task_id,
      description: 'Exported by Plangate',
      schemaVersion: '1.5',
      workflow: {
        specification: {
          tasks: plan.planned_tasks.map((t) => ({
            name: t.description || t.task_id,
            id: t.task_id,
            children: children.get(t.task_id) ?? [],
            parents: t.dependencies,
            inputFiles: [],
            outputFiles: [],
          })),
          files: [],
        },
        execution: {
          makespanInSeconds: latency.reduce((a, b) => a + b, 0) / 1000,
          executedAt: new Date(0).toISOString(),
          tasks: plan.planned_tasks.map((t, i) => ({ id: t.task_id, runtimeInSeconds: latency[i] / 1000 })),
        },
      },
    };
    return { text: `${JSON.stringify(document, null, 2)}\n`, dropped };
  },
};
