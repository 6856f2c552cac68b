import { describe, expect, it } from 'vitest';
import { PlanDocument } from '@/lib/plan';
import { MINTED_PLAN_FIELDS, MINTED_TASK_FIELDS, sameJson } from './export-drops';
import { importPlan } from './import-plan';
import { FORMATS } from './registry';

// The contract every format adapter keeps: an export reports exactly what reading it
// back loses, field by field, and a plan that has been through once comes back unchanged.

const NOW = new Date('2026-03-01T09:30:00.000Z');
const now = () => NOW;

const task = (id: string, dependencies: string[]) => ({
  task_id: id,
  main_task_id: 'main-7',
  description: `Fetch part ${id}`,
  execution_type: 'tool',
  dependencies,
  tool_id: 'facilities_list',
  function_id: 'fn_facilities',
  agent_id: 'logistics-agent',
  parameters: { retries: 2 },
  arguments: { location: 'Berlin', part: id },
  instructions: 'Only open facilities.',
  convertor_code: 'def convert(data):\n    return data',
  estimate_data: { latency_ms: 1200, cost_usd: 0.01 },
  mark_replan: true,
  status: 'completed',
  output: { rows: 3 },
  creation_time: '2026-01-02T03:04:05.000000',
  last_update_time: '2026-01-02T03:05:05.000000',
});

/** Every field of every part of a plan document set to something other than its default. */
const MAXIMAL = PlanDocument.parse({
  plan: {
    task_id: 'plan-maximal',
    task_input_data: { region: 'eu' },
    completed_tasks: ['1'],
    output_data: { total: 3 },
    creation_time: '2026-01-02T03:00:00.000000',
    update_time: '2026-01-02T03:10:00.000000',
    planned_tasks: [task('1', []), task('2', ['1'])],
    status: 'running',
    original_job_data: { ticket: 'OPS-42' },
  },
  job: {
    job_goal: { objective: 'Report on Berlin facilities', audience: 'ops' },
    job_objectives: { accuracy: 'high' },
    job_steerability_data: { complexity: 'medium', estimated_time_minutes: 30, tone: 'dry' },
    task_description: 'List the open facilities in Berlin',
  },
  subgraphs: [{ subgraph_id: 'fetch', task_ids: ['1', '2'], depends_on: [] }],
});

type Doc = PlanDocument;

/** The fields that differ between `before` and `after`, tasks paired by position, as "task <id>.<field>", "plan.<field>", "job.<field>". */
function changedFields(before: Doc, after: Doc): string[] {
  const changed: string[] = [];
  const tasksBefore = before.plan.planned_tasks;
  const tasksAfter = after.plan.planned_tasks;
  expect(tasksAfter).toHaveLength(tasksBefore.length);
  // Positional formats rename tasks; dependencies are compared through the renaming.
  const originalId = new Map(tasksAfter.map((t, i) => [t.task_id, tasksBefore[i].task_id]));
  tasksBefore.forEach((was, i) => {
    const now = tasksAfter[i];
    for (const field of Object.keys(was) as Array<keyof typeof was>) {
      if ((MINTED_TASK_FIELDS as readonly string[]).includes(field)) continue;
      const value = field === 'dependencies' ? now.dependencies.map((d) => originalId.get(d) ?? d) : now[field];
      if (!sameJson(was[field], value)) changed.push(`task ${was.task_id}.${field}`);
    }
  });
  for (const field of Object.keys(before.plan) as Array<keyof Doc['plan']>) {
    if (field === 'planned_tasks' || (MINTED_PLAN_FIELDS as readonly string[]).includes(field)) continue;
    if (!sameJson(before.plan[field], after.plan[field])) changed.push(`plan.${field}`);
  }
  for (const field of Object.keys(before.job) as Array<keyof Doc['job']>) {
    if (!sameJson(before.job[field], after.job[field])) changed.push(`job.${field}`);
  }
  if (!sameJson(before.subgraphs, after.subgraphs)) changed.push('subgraphs');
  return changed.sort();
}

function roundTrip(format: (typeof FORMATS)[number], doc: Doc) {
  const exported = format.serialize(doc, { now });
  const imported = importPlan(exported.text, format.id).document;
  return { exported, imported };
}

describe.each(FORMATS.map((f) => [f.id, f] as const))('%s: the export contract', (_id, format) => {
  it('reports exactly the fields a round trip of a maximal plan loses, and only those', () => {
    const { exported, imported } = roundTrip(format, MAXIMAL);
    const reported = [
      ...new Set(exported.lost.map((l) => (l.at === 'task' ? `task ${l.task_id}.${l.field}` : l.at === 'subgraphs' ? 'subgraphs' : `${l.at}.${l.field}`))),
    ].sort();
    expect(reported).toEqual(changedFields(MAXIMAL, imported));
    // Each lost field is also said in words, naming its task.
    for (const loss of exported.lost) {
      const scope = loss.at === 'task' ? `task ${loss.task_id}: ` : `${loss.at}: `;
      expect(exported.dropped.some((line) => line.startsWith(scope)), `${scope}${loss.field}`).toBe(true);
    }
  });

  it('reads back its own export as a fixed point: a second round trip changes nothing', () => {
    const first = roundTrip(format, MAXIMAL).imported;
    const second = roundTrip(format, first);
    const third = roundTrip(format, second.imported);
    expect(changedFields(first, second.imported)).toEqual([]);
    expect(second.exported.lost).toEqual([]);
    expect(third.exported.text).toBe(second.exported.text);
  });
});
