import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import type { TaskDataInput } from '@/lib/plan';
import { scriptedLlmPerTest } from '@/lib/llm/scripted-llm-test-support';
import { decide, getApprovedPlan, submitForReview } from '../approval/approval-service';
import { replanProposals } from '../platform/db/schema';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { principal, refusal } from '../platform/test-support';
import { createPlan, getPlan, getRevisions, savePlan } from '../plans/plan-service';
import { applyReplanProposal, getReplanProposal, proposeReplan } from './replan-service';
import { ApplyReplanRequest, ReplanRequest, type ReplanRequestInput } from '@/lib/replan/replan-types';

const plan: TaskDataInput = {
  task_id: 'job-1',
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch the rows', execution_type: 'tool', tool_id: 'http_get' },
    { task_id: 'summarise', description: 'Summarise them', execution_type: 'llm', function_id: 'gpt-4', dependencies: ['fetch'] },
    { task_id: 'review', description: 'Review the summary', execution_type: 'agent', agent_id: 'reviewer', dependencies: ['summarise'] },
  ],
};

const who = principal;
const editor = who('eddie', 'editor');
const approver = who('alice', 'approver');

const setupLlm = scriptedLlmPerTest();

/** Runs `body` with the LLM endpoint variables set, restoring them after. */
async function withLlmEnv(baseURL: string, body: () => Promise<void>) {
  const previous = { url: process.env.LLM_BASE_URL, model: process.env.LLM_MODEL, retries: process.env.LLM_MAX_RETRIES };
  Object.assign(process.env, { LLM_BASE_URL: baseURL, LLM_MODEL: 'scripted-model', LLM_MAX_RETRIES: '1' });
  try {
    await body();
  } finally {
    for (const [key, value] of [['LLM_BASE_URL', previous.url], ['LLM_MODEL', previous.model], ['LLM_MAX_RETRIES', previous.retries]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

describe.each(testDatabases())('replanning on $name', (database) => {
  const db = useTestDatabase(database);
  const propose = (id: string, request: ReplanRequestInput) => proposeReplan(db(), id, ReplanRequest.parse(request), editor);
  const apply = (id: string, proposalId: string, request: ApplyReplanRequest) => applyReplanProposal(db(), id, proposalId, ApplyReplanRequest.parse(request), editor);
  const create = async (tasks: TaskDataInput = plan) => (await createPlan(db(), CreatePlanRequest.parse({ title: 'Replan', plan: tasks }), editor.username)).id;

  it('proposes replacements for the named tasks, stores the proposal and shows its diff, leaving the plan as it was', async () => {
    const id = await create();
    const proposal = await propose(id, { task_ids: ['summarise'], instructions: 'in German', base_revision: 1 });
    expect(proposal).toMatchObject({
      plan_id: id,
      revision: 1,
      task_ids: ['summarise'],
      instructions: 'in German',
      planned_by: { backend: 'rule-based' },
      created_by: 'eddie',
      applied_revision: null,
    });
    expect(proposal.replacements[0].tasks[0]).toMatchObject({ task_id: 'summarise-r1', description: 'Summarise them. In German.', function_id: 'gpt-4' });
    expect(proposal.diff).toEqual([
      expect.objectContaining({
        replaces: 'summarise',
        fields: [
          { field: 'description', before: 'Summarise them', after: 'Summarise them. In German.' },
          { field: 'instructions', before: null, after: 'in German' },
        ],
        edges_added: [
          { from: 'fetch', to: 'summarise-r1' },
          { from: 'summarise-r1', to: 'review' },
        ],
        edges_removed: [
          { from: 'fetch', to: 'summarise' },
          { from: 'summarise', to: 'review' },
        ],
        error: null,
      }),
    ]);
    expect(await getReplanProposal(db(), id, proposal.proposal_id)).toEqual(proposal);
    expect((await getPlan(db(), id)).revision).toBe(1);
  });

  it('applies the accepted replacement as a new revision that returns the plan to draft and voids its approval', async () => {
    const id = await create();
    const { content_hash } = await getPlan(db(), id);
    await submitForReview(db(), id, {}, editor);
    await decide(db(), id, 'approved', { revision: 1, content_hash, comment: 'Fine' }, approver);
    expect((await getApprovedPlan(db(), id)).revision).toBe(1);

    const proposal = await propose(id, { task_ids: ['summarise', 'review'], instructions: 'Be brief' });
    const applied = await apply(id, proposal.proposal_id, { accepted_task_ids: ['summarise'] });
    expect(applied).toMatchObject({ proposal_id: proposal.proposal_id, revision: 2, applied: ['summarise'] });
    expect(applied.plan).toMatchObject({ revision: 2, status: 'draft', content_hash: applied.content_hash, author: 'eddie' });
    expect(applied.plan.plan.planned_tasks.map((t) => [t.task_id, t.main_task_id, t.dependencies])).toEqual([
      ['fetch', '', []],
      ['summarise-r1', 'summarise', ['fetch']],
      ['review', '', ['summarise-r1']],
    ]);
    const stale = await refusal(getApprovedPlan(db(), id));
    expect([stale.status, stale.code]).toEqual([409, 'stale']);
    expect((await getRevisions(db(), id)).at(-1)).toMatchObject({ revision: 2, parent_revision: 1, message: `Replanned summarise (proposal ${proposal.proposal_id})` });
    expect((await getReplanProposal(db(), id, proposal.proposal_id)).applied_revision).toBe(2);
  });

  it('refuses to apply a proposal twice, naming the revision it made', async () => {
    const id = await create();
    const { proposal_id } = await propose(id, { task_ids: ['summarise'] });
    await apply(id, proposal_id, { accepted_task_ids: ['summarise'] });
    const again = await refusal(apply(id, proposal_id, { accepted_task_ids: ['summarise'] }));
    expect([again.status, again.code, again.message]).toEqual([409, 'conflict', `Replan proposal "${proposal_id}" was already applied, as revision 2 of plan "${id}"`]);
  });

  it('refuses a stale base revision, and applying after the plan moved on', async () => {
    const id = await create();
    const { proposal_id } = await propose(id, { task_ids: ['summarise'] });
    await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 1, plan: { ...plan, status: 'edited' } }), editor.username);
    const stale = await refusal(propose(id, { task_ids: ['summarise'], base_revision: 1 }));
    expect([stale.status, stale.extra]).toEqual([409, { current_revision: 2 }]);
    const moved = await refusal(apply(id, proposal_id, { accepted_task_ids: ['summarise'] }));
    expect([moved.status, moved.code, moved.extra]).toEqual([409, 'conflict', { current_revision: 2 }]);
    expect(moved.message).toBe(`Plan "${id}" has moved on since this proposal was made for revision 1; propose the replanning again on the current revision`);
    expect((await getPlan(db(), id)).revision).toBe(2);
  });

  it('uses the tasks marked mark_replan when none are named, and says when there are none', async () => {
    const id = await create({ ...plan, planned_tasks: plan.planned_tasks!.map((t) => ({ ...t, mark_replan: t.task_id === 'review' })) });
    expect((await propose(id, {})).task_ids).toEqual(['review']);
    const unmarked = await create();
    const none = await refusal(propose(unmarked, { instructions: 'x' }));
    expect([none.status, none.message]).toEqual([400, `No task of plan "${unmarked}" is marked for replanning (mark_replan); name the tasks in task_ids`]);
  });

  it('refuses unknown tasks, plans, proposals and accepted ids with what is wrong', async () => {
    const id = await create();
    const unknownTask = await refusal(propose(id, { task_ids: ['summarise', 'ghost'] }));
    expect([unknownTask.status, unknownTask.message]).toEqual([400, `No task "ghost" in plan "${id}"`]);
    expect((await refusal(propose('nosuchplan', { task_ids: ['a'] }))).status).toBe(404);
    expect(() => ReplanRequest.parse({ task_ids: [] })).toThrow(/Name at least one task to replan/);
    expect((await refusal(propose(id, { task_ids: ['fetch'], backend: 'behavior-controller' }))).message).toBe(
      'The Behavior Controller protocol has no replanning call; use backend "llm" or "rule-based"',
    );

    const { proposal_id } = await propose(id, { task_ids: ['summarise'] });
    const notProposed = await refusal(apply(id, proposal_id, { accepted_task_ids: ['fetch'] }));
    expect([notProposed.status, notProposed.message]).toEqual([400, `Replan proposal "${proposal_id}" has no replacement for task "fetch"; it replaces "summarise"`]);
    expect(() => ApplyReplanRequest.parse({ accepted_task_ids: [] })).toThrow(/Accept at least one replacement/);
    expect((await refusal(getReplanProposal(db(), id, 'nosuchproposal'))).status).toBe(404);
    const other = await create();
    expect((await refusal(getReplanProposal(db(), other, proposal_id))).message).toBe(`Replan proposal "${proposal_id}" of plan "${other}" not found`);
  });

  it('answers 422 with the reason when the accepted replacements cannot be applied', async () => {
    const id = await create();
    const { proposal_id } = await propose(id, { task_ids: ['summarise'] });
    const [row] = await db().select().from(replanProposals).where(eq(replanProposals.id, proposal_id));
    const body = row.body as { replacements: Array<{ tasks: Array<{ dependencies: string[] }> }> };
    body.replacements[0].tasks[0].dependencies = ['review'];
    await db().update(replanProposals).set({ body }).where(eq(replanProposals.id, proposal_id));
    const error = await refusal(apply(id, proposal_id, { accepted_task_ids: ['summarise'] }));
    expect([error.status, error.code, error.message]).toEqual([422, 'unprocessable', 'The replacement for "summarise" would create a cycle: summarise-r1 → review → summarise-r1']);
  });

  it('replans with the LLM when asked, and reports a model that never answers usably as a 502 with its attempts', async () => {
    const id = await create();
    const good = JSON.stringify({ replacements: [{ replaces: 'summarise', tasks: [{ task_id: 'summarise-de', description: 'Summarise in German', execution_type: 'llm', function_id: 'gpt-4' }] }] });
    const { server } = await setupLlm([{ content: good }, { content: 'no idea' }, { content: '{"replacements": []}' }]);
    await withLlmEnv(server.url, async () => {
      const proposal = await propose(id, { task_ids: ['summarise'], backend: 'llm' });
      expect(proposal.planned_by).toEqual({ backend: 'llm', model: 'scripted-model', label: expect.stringContaining('LLM replanner: scripted-model') });
      expect(proposal.diff[0].after.map((t) => t.task_id)).toEqual(['summarise-de']);

      const failed = await refusal(propose(id, { task_ids: ['summarise'], backend: 'llm' }));
      expect([failed.status, failed.code]).toEqual([502, 'planner_failed']);
      expect(failed.message).toMatch(/^LLM replanner: scripted-model at .* failed: The model's answer was unusable after 2 attempts: 1\) not JSON.*; 2\) schema: replacements: Replace at least one task/);
    });
  });

  it('refuses instructions no row can hold with a 400, and a model answer holding a NUL or a lone surrogate as a 502, storing nothing', async () => {
    const id = await create();
    for (const instructions of ['in \u0000 German', 'in \ud800 German']) {
      const error = await refusal(propose(id, { task_ids: ['summarise'], instructions }));
      expect([error.status, error.message]).toEqual([400, 'The instructions contain a NUL character or an unpaired UTF-16 surrogate, which cannot be stored']);
    }
    const answer = (description: string) => `{"replacements": [{"replaces": "summarise", "tasks": [{"task_id": "summarise-de", "description": "${description}", "execution_type": "llm", "function_id": "gpt-4"}]}]}`;
    const { server } = await setupLlm([{ content: answer('a \\u0000 b') }, { content: answer('a \\udc00 b') }]);
    await withLlmEnv(server.url, async () => {
      for (let i = 0; i < 2; i++) {
        const failed = await refusal(propose(id, { task_ids: ['summarise'], backend: 'llm' }));
        expect([failed.status, failed.code]).toEqual([502, 'planner_failed']);
        expect(failed.message).toMatch(/failed: its answer contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored$/);
      }
    });
    expect(await db().select().from(replanProposals).where(eq(replanProposals.planId, id))).toEqual([]);
  });
});
