import { describe, expect, it } from 'vitest';
import { PlanDocument } from '@/lib/plan';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import { LlmAnswerError } from '@/lib/llm/structured-output';
import type { ScriptedLlmServer, ScriptedReply } from '@/lib/llm/scripted-llm-server';
import { scriptedLlmPerTest } from '@/lib/llm/scripted-llm-test-support';
import { applyReplacements } from './apply-replacements';
import { llmReplanner } from './llm-replanner';
import type { ReplanInput } from './replan-types';

// The LLM replanner against a scripted OpenAI-compatible server over real HTTP.

const registry = Registry.parse(DEMO_REGISTRY);
const doc = PlanDocument.parse({
  plan: {
    planned_tasks: [
      { task_id: 'fetch', description: 'Get shipments', execution_type: 'tool', tool_id: 'shipments_list', arguments: { limit: 100 } },
      { task_id: 'check', description: 'Check them', execution_type: 'llm', function_id: 'gpt-4', dependencies: ['fetch'], mark_replan: true },
      { task_id: 'report', description: 'Report', execution_type: 'agent', agent_id: 'summariser', dependencies: ['check'] },
    ],
  },
});
const request: ReplanInput = { doc, taskIds: ['check'], instructions: 'Have a reviewer look at it too', registry, today: '2025-10-12' };

const answer = (replacements: unknown) => ({ content: JSON.stringify({ replacements }) });
const good = answer([
  {
    replaces: 'check',
    tasks: [
      { task_id: 'check-r1', description: 'Check the shipments', execution_type: 'llm', function_id: 'gpt-4' },
      { task_id: 'check-r2', description: 'Review the check', execution_type: 'agent', agent_id: 'reviewer', dependencies: ['check-r1'] },
    ],
  },
]);
const unknownTool = answer([{ replaces: 'check', tasks: [{ task_id: 'check-r1', execution_type: 'tool', tool_id: 'shipments_delete' }] }]);
const cyclic = answer([{ replaces: 'check', tasks: [{ task_id: 'check-r1', execution_type: 'llm', function_id: 'gpt-4', dependencies: ['report'] }] }]);
const wrongIds = answer([{ replaces: 'fetch', tasks: [{ task_id: 'fetch', execution_type: 'tool', tool_id: 'shipments_list' }] }]);

const setup = scriptedLlmPerTest();
let server: ScriptedLlmServer | null = null;

async function replannerWith(script: ScriptedReply[], maxRetries = 2) {
  const started = await setup(script, { maxRetries });
  server = started.server;
  return llmReplanner(started.config);
}

const userMessages = (n: number) => server!.requests[n].body.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content);

describe('LLM replanner', () => {
  it('takes a good replacement the first time, with the plan sent as fenced data', async () => {
    const replanner = await replannerWith([good]);
    const { replacements, notes } = await replanner.replan(request);
    expect(replacements[0].tasks.map((t) => t.task_id)).toEqual(['check-r1', 'check-r2']);
    expect(notes).toEqual(['Replanned by scripted-model in 1 attempt.']);
    expect(replanner).toMatchObject({ backend: 'llm', model: 'scripted-model' });
    const body = server!.requests[0].body;
    expect(body.response_format.type).toBe('json_schema');
    expect(body.messages[1].content).toMatch(/<<<PLAN-\w+\n/);
    expect(body.messages[1].content).toMatch(/<<<INSTRUCTIONS-\w+\nHave a reviewer look at it too\n/);

    const applied = applyReplacements(doc, replacements, ['check']);
    expect(applied.plan.planned_tasks.map((t) => [t.task_id, t.dependencies])).toEqual([
      ['fetch', []],
      ['check-r1', ['fetch']],
      ['check-r2', ['check-r1']],
      ['report', ['check-r2']],
    ]);
  });

  it.each([
    ['an unknown tool', unknownTool, /shipments_delete/],
    ['a cycle', cyclic, /would create a cycle: check-r1 → report → check-r1/],
    ['the wrong task ids', wrongIds, /Task "fetch" is not marked for replanning[\s\S]*No replacement for task "check"/],
  ])('retries %s with the problem fed back, then takes a good answer', async (_what, bad, feedback) => {
    const replanner = await replannerWith([bad, good]);
    const { replacements, notes } = await replanner.replan(request);
    expect(replacements[0].replaces).toBe('check');
    expect(notes).toEqual(['Replanned by scripted-model in 2 attempts.']);
    const retry = userMessages(1).at(-1);
    expect(retry).toMatch(/previous answer was invalid/);
    expect(retry).toMatch(feedback);
  });

  it('fails after the retries with every attempt’s reasons', async () => {
    const replanner = await replannerWith([unknownTool, cyclic, wrongIds]);
    const error = await replanner.replan(request).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LlmAnswerError);
    const { attempts, message } = error as LlmAnswerError;
    expect(attempts).toHaveLength(3);
    expect(attempts[0]).toMatch(/shipments_delete/);
    expect(attempts[1]).toMatch(/cycle: check-r1 → report → check-r1/);
    expect(attempts[2]).toMatch(/not marked for replanning/);
    expect(message).toMatch(/^The model's answer was unusable after 3 attempts: 1\) .*; 2\) .*; 3\) /);
    expect(server!.requests).toHaveLength(3);
  });

  it('does not blame the model for errors the plan already had', async () => {
    const broken = PlanDocument.parse({
      plan: { planned_tasks: [...doc.plan.planned_tasks, { task_id: 'legacy', execution_type: 'tool', tool_id: 'no_such_tool' }] },
    });
    const replanner = await replannerWith([good]);
    const { notes } = await replanner.replan({ ...request, doc: broken });
    expect(notes).toEqual(['Replanned by scripted-model in 1 attempt.']);
  });
});
