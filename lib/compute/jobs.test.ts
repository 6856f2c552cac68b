import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import { PlanDocument, type TaskDataInput } from '@/lib/plan';
import { CURRENT_SCHEMA_VERSION } from '@/lib/plan/migrations';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import { dryRun } from '@/lib/simulate/dry-run';
import { joinTaskPages } from '@/lib/simulate/dry-run-pages';
import { runConvertor } from '@/lib/simulate/sandbox/run-convertor';
import { validatePlan } from '@/lib/validate';
import { buildGraphIndex } from '@/lib/graph';
import { optimizeSubgraphs } from '@/lib/optimize/rule-based-optimizer';
import { estimateTasks } from '@/lib/simulate/task-estimates';
import { formatById } from '@/lib/formats/registry';
import { layOutTasks } from '@/lib/layout/first-layout';
import { COMPUTE_JOBS, JobRefusal, type CallServer } from './jobs';

// The jobs a compute worker runs give what the same code gave on the server's thread
// (bit for bit, for a seeded Monte Carlo), and refuse bad input with the words the server
// used. The pool that carries them is tested in lib/server/platform/compute/worker-pool.test.ts.

const registry = Registry.parse(DEMO_REGISTRY);

const plan: TaskDataInput = {
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'shipments_list', arguments: { has_contaminants: true, limit: 100 } },
    { task_id: 'convert', description: 'Convert', execution_type: 'tool', tool_id: 'contaminants_list', dependencies: ['fetch'], arguments: { shipment_ids: '${step[0].data.*.id}' }, convertor_code: 'return { shipment_ids: input.shipment_ids.slice(0, 1) };' },
    ...Array.from({ length: 40 }, (_, i) => ({ task_id: `t${i}`, description: `T${i}`, execution_type: 'llm' as const, dependencies: [i % 2 ? 'convert' : 'fetch'], estimate_data: { latency_ms: 100 + i * 37, cost_usd: 0.01 } })),
  ],
};
const document = PlanDocument.parse({ plan });
/** A revision as the database gives it: the body without its tasks, and the tasks as joined text. */
const revision = (body: { plan: { planned_tasks: unknown[] } }) =>
  ({ planId: 'p1', revision: 3, schemaVersion: CURRENT_SCHEMA_VERSION, bodyText: JSON.stringify({ ...body, plan: { ...body.plan, planned_tasks: [] } }), tasksText: JSON.stringify(body.plan.planned_tasks) });
const viaServer: CallServer = async (kind, input) => {
  expect(kind).toBe('convertor');
  const { code, input: value } = input as { code: string; input: unknown };
  return runConvertor(code, value);
};
const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof JobRefusal ? error.refusal : error));

describe('compute jobs', () => {
  it('dry-runs a stored revision exactly as dryRun does, Monte Carlo and convertors included', async () => {
    const options = { workers: 3, runs: 200, failure_probability: 0.02, seed: 7 };
    const pages = await COMPUTE_JOBS.dryRun({ revision: revision(document), registry, options }, viaServer);
    // The tasks come back as pages of JSON text; put together they are dryRun's result.
    const inWorker = { ...pages.summary, tasks: JSON.parse(joinTaskPages(pages.taskPages)) };
    expect(inWorker).toEqual(await dryRun(document.plan, registry, options, runConvertor));
    expect(pages.taskCount).toBe(42);
    expect(inWorker.monte_carlo?.runs).toBe(200);
    expect(inWorker.tasks[1].resolved_input).toEqual({ shipment_ids: ['shipments_list-data-id-1'] });
  });

  it('refuses options that name no task (400), a plan with a cycle (422) and a revision it cannot read (integrity)', async () => {
    expect(await refusal(COMPUTE_JOBS.dryRun({ revision: revision(document), registry, options: { workers: 1, fail_task_ids: ['nope'] } }, viaServer))).toEqual({
      code: 'bad_request',
      message: 'No task "nope" in the plan to fail',
    });
    const cyclic = { ...document, plan: { ...document.plan, planned_tasks: document.plan.planned_tasks.map((t) => (t.task_id === 'fetch' ? { ...t, dependencies: ['t0'] } : t)) } };
    expect(await refusal(COMPUTE_JOBS.dryRun({ revision: revision(cyclic), registry, options: { workers: 1 } }, viaServer))).toMatchObject({ code: 'unprocessable', message: expect.stringMatching(/has a cycle/) });
    expect(await refusal(COMPUTE_JOBS.validateRevision({ revision: { ...revision(document), bodyText: JSON.stringify({ plan: 'not a plan' }) }, registry }))).toMatchObject({
      code: 'integrity',
      message: expect.stringMatching(/^plan_revisions row \(plan "p1", revision 3, schema version 1\) cannot be read/),
      extra: { reason: 'integrity', table: 'plan_revisions', plan_id: 'p1', revision: 3 },
    });
  });

  it("validates a stored revision with its subgraphs, and a request's text as the route would parse it", async () => {
    expect(await COMPUTE_JOBS.validateRevision({ revision: revision(document), registry })).toEqual(validatePlan(document.plan, registry, document.subgraphs));
    expect(await COMPUTE_JOBS.validateRequest({ bodyText: JSON.stringify({ plan }), registry })).toEqual(validatePlan(document.plan, registry));
    expect(await refusal(COMPUTE_JOBS.validateRequest({ bodyText: '{"plan": ', registry }))).toMatchObject({ code: 'invalid_json', message: expect.stringMatching(/^Malformed JSON in the request body/) });
    expect(await refusal(COMPUTE_JOBS.validateRequest({ bodyText: ' ', registry }))).toEqual({ code: 'invalid_json', message: 'The request body is empty; expected a JSON object' });
    expect(await refusal(COMPUTE_JOBS.validateRequest({ bodyText: '{"plan": {}, "extra": 1}', registry }))).toMatchObject({ code: 'bad_request', what: 'request body', issues: expect.arrayContaining([expect.objectContaining({ path: [] })]) });
  });

  it("reads a revision for its review: the gate's validation and resources, its first rows, every task's name when the rows hold every task, the diff from its base", async () => {
    const { snapshotResources } = await import('@/lib/approval/approved-resources');
    const { diffPlans } = await import('@/lib/plan');
    // The head routes six tasks to tools no registry has (an error each); the base had none
    // of them and another description for t0.
    const head = PlanDocument.parse({
      plan: { planned_tasks: [...(plan.planned_tasks ?? []), ...Array.from({ length: 6 }, (_, i) => ({ task_id: `bad${i}`, execution_type: 'tool' as const, tool_id: `missing_${i}` }))] },
    });
    const baseTasks = head.plan.planned_tasks.filter((t) => !t.task_id.startsWith('bad')).map((t) => (t.task_id === 't0' ? { ...t, description: 'Before' } : t));
    const base = { ...head, plan: { ...head.plan, planned_tasks: baseTasks } };
    const facts = await COMPUTE_JOBS.reviewRevision({ head: revision(head), base: revision(base), registry, rows: 5 });
    expect(facts.validation).toEqual(validatePlan(head.plan, registry, head.subgraphs));
    expect(facts.validation.issues.filter((issue) => issue.severity === 'error').length).toBeGreaterThanOrEqual(6);
    expect(facts.resources).toEqual(snapshotResources(head.plan.planned_tasks, registry));
    expect(facts.taskCount).toBe(48);
    expect(facts.tasks).toEqual(head.plan.planned_tasks.slice(0, 5));
    // Five rows of 48: the page's forms read the names from the revision the canvas loads.
    expect(facts.names).toBeNull();
    const whole = await COMPUTE_JOBS.reviewRevision({ head: revision(head), registry, rows: 48 });
    expect(whole.names).toEqual(head.plan.planned_tasks.map((t) => ({ task_id: t.task_id, description: t.description })));
    expect(facts.diff).toEqual(diffPlans(base, head));
    expect(facts.diff?.added.map((t) => t.task_id)).toEqual(['bad0', 'bad1', 'bad2', 'bad3', 'bad4', 'bad5']);
    expect(facts.diff?.changed).toEqual([expect.objectContaining({ task_id: 't0' })]);
    // Its own base: nothing to compare.
    expect((await COMPUTE_JOBS.reviewRevision({ head: revision(document), registry, rows: 100 })).diff).toBeNull();
  });

  it('parses a create request and completes its document as the server would, refusing a bad one as the route layer does', async () => {
    const made = await COMPUTE_JOBS.createRequest({ bodyText: JSON.stringify({ title: 'New', plan, message: 'First' }) });
    expect([made.title, made.message]).toEqual(['New', 'First']);
    expect(made.document.plan.planned_tasks.map((t) => t.task_id)).toEqual(document.plan.planned_tasks.map((t) => t.task_id));
    expect(made.document.plan.planned_tasks.every((t) => t.creation_time && t.last_update_time)).toBe(true);
    // Sent without positions, it comes back laid out as the editor would lay it out (lib/layout/first-layout.ts).
    expect(made.document.view.positions).toEqual(await layOutTasks(new ELK(), made.document.plan.planned_tasks));
    const placed = { fetch: { x: 1, y: 2 }, ...Object.fromEntries(plan.planned_tasks!.slice(1).map((t, i) => [t.task_id, { x: 300, y: i * 100 }])) };
    const kept = await COMPUTE_JOBS.createRequest({ bodyText: JSON.stringify({ title: 'Placed', plan, view: { positions: placed } }) });
    expect(kept.document.view.positions).toEqual(placed);
    expect(await refusal(COMPUTE_JOBS.createRequest({ bodyText: JSON.stringify({ plan }) }))).toMatchObject({ code: 'bad_request', issues: [expect.objectContaining({ path: ['title'] })] });
  });

  it('groups a stored revision or the given tasks as the rule-based optimiser does, and refuses a plan with a cycle (422)', async () => {
    const tasks = document.plan.planned_tasks;
    const expected = optimizeSubgraphs(tasks, buildGraphIndex(tasks), estimateTasks(tasks, registry).durations, 3);
    expect(await COMPUTE_JOBS.optimizeRule({ revision: revision(document), registry, workers: 3 })).toEqual(expected);
    expect(await COMPUTE_JOBS.optimizeRule({ tasks, registry, workers: 3 })).toEqual(expected);
    const cyclic = tasks.map((t) => (t.task_id === 'fetch' ? { ...t, dependencies: ['t0'] } : t));
    expect(await refusal(COMPUTE_JOBS.optimizeRule({ tasks: cyclic, registry, workers: 3 }))).toEqual({
      code: 'unprocessable',
      message: 'The plan has a cycle, a missing dependency or a repeated task id; fix the validation errors before grouping it',
    });
  });

  it('exports a stored revision as the format writes it, and refuses what the format cannot express (422)', async () => {
    expect(await COMPUTE_JOBS.exportRevision({ revision: revision(document), formatId: 'taskdata' })).toEqual(formatById('taskdata').serialize({ plan: document.plan, job: document.job, subgraphs: document.subgraphs }));
    const cyclic = { ...document, plan: { ...document.plan, planned_tasks: document.plan.planned_tasks.map((t) => (t.task_id === 'fetch' ? { ...t, dependencies: ['t0'] } : t)) } };
    expect(await refusal(COMPUTE_JOBS.exportRevision({ revision: revision(cyclic), formatId: 'planner-agent' }))).toMatchObject({ code: 'unprocessable', message: expect.stringMatching(/^Revision 3 cannot be exported as planner-agent: /) });
  });

  it('imports a plan file as a completed document, and refuses one it cannot read with the import answer', async () => {
    const imported = await COMPUTE_JOBS.importPlan({ content: JSON.stringify({ planned_tasks: [{ task_id: 'a', execution_type: 'llm' }] }) });
    expect([imported.formatId, imported.document.plan.planned_tasks.map((t) => t.task_id)]).toEqual(['taskdata', ['a']]);
    expect(imported.document.view.positions).toEqual({ a: expect.objectContaining({ x: expect.any(Number), y: expect.any(Number) }) });
    expect(await refusal(COMPUTE_JOBS.importPlan({ content: '   ' }))).toEqual({
      code: 'bad_request',
      message: 'Could not import as a plan: the file is empty',
      details: [{ path: '(file)', message: 'the file is empty' }],
      extra: { format: 'unknown' },
    });
  });
});
