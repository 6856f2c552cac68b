import { describe, expect, it } from 'vitest';
import { CreatePlanRequest } from '@/lib/api/schemas';
import type { ScriptedReply } from '@/lib/llm/scripted-llm-server';
import { scriptedLlmPerTest } from '@/lib/llm/scripted-llm-test-support';
import { PlannerTask, type PlannerTaskInput } from '@/lib/plan';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { createPlan } from '../plans/plan-service';
import { refusal } from '../platform/test-support';
import { proposeGrouping, proposeSubgraphs } from './optimize-service';

// The optimiser service on a real database, with the LLM optimiser configured the way a
// deployment configures it (LLM_* variables) and pointed at a scripted server.

// fetch → parse → summarise is a chain; facilities stands apart until report joins them.
const planned: PlannerTaskInput[] = [
  { task_id: 'fetch', description: 'List contaminated shipments', execution_type: 'tool', tool_id: 'shipments_list' },
  { task_id: 'parse', description: 'Pick out the contaminant ids', execution_type: 'llm', dependencies: ['fetch'] },
  { task_id: 'summarise', description: 'Summarise the contaminants', execution_type: 'llm', dependencies: ['parse'] },
  { task_id: 'facilities', description: 'List facilities', execution_type: 'tool', tool_id: 'facilities_list' },
  { task_id: 'report', description: 'Write the report', execution_type: 'agent', dependencies: ['summarise', 'facilities'] },
].map((t) => ({ ...t, estimate_data: { latency_ms: 100 } }));
const tasks = planned.map((t) => PlannerTask.parse(t));

const grouping = (subgraphs: Array<{ subgraph_id: string; task_ids: string[] }>): ScriptedReply => ({ content: JSON.stringify({ subgraphs }) });
const good = grouping([
  { subgraph_id: 'contaminants', task_ids: ['fetch', 'parse', 'summarise'] },
  { subgraph_id: 'sites', task_ids: ['facilities'] },
  { subgraph_id: 'output', task_ids: ['report'] },
]);
const cyclic = grouping([
  { subgraph_id: 'ends', task_ids: ['fetch', 'summarise'] },
  { subgraph_id: 'middle', task_ids: ['parse'] },
  { subgraph_id: 'rest', task_ids: ['facilities', 'report'] },
]);

const setup = scriptedLlmPerTest();

async function llmEnv(script: ScriptedReply[], maxRetries = 0) {
  const { server } = await setup(script);
  return { server, env: { LLM_BASE_URL: server.url, LLM_MODEL: 'scripted-model', LLM_MAX_RETRIES: String(maxRetries) } };
}

describe.each(testDatabases())('optimise service on $name', (database) => {
  const db = useTestDatabase(database);

  it('groups the head revision with the model when its grouping keeps the invariants', async () => {
    const { id, revision, content_hash } = await createPlan(db(), CreatePlanRequest.parse({ title: 'To group', plan: { planned_tasks: planned } }), 'tester');
    const { env } = await llmEnv([good]);
    const answer = await proposeSubgraphs(db(), id, { strategy: 'llm', workers: 2 }, env);
    expect(answer).toMatchObject({ revision, content_hash, strategy: 'llm', llm: { accepted: true, reason: null, model: 'scripted-model', proposed: null } });
    expect(answer.subgraphs).toEqual([
      { subgraph_id: 'contaminants', task_ids: ['fetch', 'parse', 'summarise'], depends_on: [] },
      { subgraph_id: 'sites', task_ids: ['facilities'], depends_on: [] },
      { subgraph_id: 'output', task_ids: ['report'], depends_on: ['contaminants', 'sites'] },
    ]);
    expect(answer.report).toMatchObject({ subgraphs: 3, dispatches_saved: 2, makespan_before_ms: 400, makespan_after_ms: 400, workers: 2 });
    expect(answer.report.reasons[0]).toMatch(/^Grouped by the model \(scripted-model\)/);
  });

  it('offers the rule-based grouping when the model proposes a cyclic one, with the reason', async () => {
    const { env } = await llmEnv([cyclic]);
    const answer = await proposeGrouping(db(), tasks, { strategy: 'llm', workers: 2 }, env);
    const rule = await proposeGrouping(db(), tasks, { strategy: 'rule', workers: 2 });
    expect(rule.llm).toBeUndefined();
    expect(answer.strategy).toBe('rule');
    expect(answer.subgraphs).toEqual(rule.subgraphs);
    expect(answer.llm).toMatchObject({ accepted: false, model: 'scripted-model' });
    expect(answer.llm!.reason).toMatch(/^Subgraphs wait on each other: ends → middle → ends/);
    expect(answer.llm!.proposed!.map((sg) => sg.subgraph_id)).toEqual(['ends', 'middle', 'rest']);
    expect(answer.report).toEqual({ ...rule.report, reasons: [`The model's grouping was rejected (${answer.llm!.reason}); this is the rule-based grouping instead`, ...rule.report.reasons] });
  });

  it('groups the tasks as the editor holds them, unsaved edits included', async () => {
    const edited = [...tasks, PlannerTask.parse({ task_id: 'archive', execution_type: 'tool', dependencies: ['report'], estimate_data: { latency_ms: 100 } })];
    const { subgraphs } = await proposeGrouping(db(), edited, { strategy: 'rule', workers: 2 });
    expect(subgraphs.flatMap((sg) => sg.task_ids)).toContain('archive');
    expect(subgraphs.find((sg) => sg.task_ids.includes('report'))!.task_ids).toEqual(['report', 'archive']);
  });

  it('groups the head revision by rule in a compute worker, and refuses a cyclic plan with 422 through it', async () => {
    const { id, revision, content_hash } = await createPlan(db(), CreatePlanRequest.parse({ title: 'By rule', plan: { planned_tasks: planned } }), 'tester');
    const answer = await proposeSubgraphs(db(), id, { strategy: 'rule', workers: 2 });
    expect(answer).toMatchObject({ revision, content_hash, strategy: 'rule' });
    expect(answer).toEqual({ revision, content_hash, ...(await proposeGrouping(db(), tasks, { strategy: 'rule', workers: 2 })) });
    const loop = [PlannerTask.parse({ task_id: 'a', dependencies: ['b'] }), PlannerTask.parse({ task_id: 'b', dependencies: ['a'] })];
    const error = await refusal(proposeGrouping(db(), loop, { strategy: 'rule', workers: 2 }));
    expect([error.status, error.code, error.message]).toEqual([422, 'unprocessable', 'The plan has a cycle, a missing dependency or a repeated task id; fix the validation errors before grouping it']);
  });

  it('says which variables the LLM optimiser needs when none is configured', async () => {
    const error = await refusal(proposeGrouping(db(), tasks, { strategy: 'llm', workers: 2 }, {}));
    expect([error.status, error.message]).toEqual([400, 'The LLM optimiser is not configured: set LLM_BASE_URL and LLM_MODEL (an OpenAI-compatible endpoint), or use strategy "rule"']);
  });

  it('answers 502 when the model cannot be reached or its answers stay unusable', async () => {
    const down = await llmEnv([{ status: 500, error: 'overloaded' }]);
    const http = await refusal(proposeGrouping(db(), tasks, { strategy: 'llm', workers: 2 }, down.env));
    expect([http.status, http.code, http.extra]).toEqual([502, 'planner_failed', { backend: 'llm', model: 'scripted-model' }]);
    expect(http.message).toMatch(/^LLM optimiser: scripted-model at 127\.0\.0\.1:\d+ failed: /);

    const babble = await llmEnv([{ content: 'sure!' }, { content: 'all in one' }], 1);
    const unusable = await refusal(proposeGrouping(db(), tasks, { strategy: 'llm', workers: 2 }, babble.env));
    expect(unusable.status).toBe(502);
    expect(unusable.message).toContain("The model's answer was unusable after 2 attempts");
  });

  it('refuses a cyclic plan before asking the model', async () => {
    const { server, env } = await llmEnv([good]);
    const loop = [PlannerTask.parse({ task_id: 'a', dependencies: ['b'] }), PlannerTask.parse({ task_id: 'b', dependencies: ['a'] })];
    const error = await refusal(proposeGrouping(db(), loop, { strategy: 'llm', workers: 2 }, env));
    expect(error.status).toBe(422);
    expect(server.requests).toHaveLength(0);
  });
});
