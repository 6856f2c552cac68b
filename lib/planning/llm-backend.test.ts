import { describe, expect, it } from 'vitest';
import { PlannerTask } from '@/lib/plan';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import type { ScriptedLlmServer, ScriptedReply } from '@/lib/llm/scripted-llm-server';
import { scriptedLlmPerTest } from '@/lib/llm/scripted-llm-test-support';
import { llmBackend } from './llm-backend';
import { Stage1Input } from './planning-types';

// The LLM planner against a scripted OpenAI-compatible server over real HTTP: what the
// model says, in what order, and what Plangate makes of it.

const registry = Registry.parse(DEMO_REGISTRY);
// Input schemas on an agent and a workflow too, so Stage 2 answers of every kind are checked.
const withSchemas = Registry.parse({
  ...registry,
  agents: registry.agents.map((a) => (a.id === 'summariser' ? { ...a, input_schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } } : a)),
  dsl_workflows: registry.dsl_workflows.map((d) => ({ ...d, input_schema: { type: 'object', properties: { sections: { type: 'array' } } } })),
});
const input = Stage1Input.parse({ task_description: 'Get contaminated shipments and their contaminant details', today: '2025-10-12' });
const goodPlan = JSON.stringify({
  tasks: [
    { task_id: 'shipments', description: 'Contaminated shipments', execution_type: 'tool', tool_id: 'shipments_list', arguments: { has_contaminants: true, limit: 100 } },
    { task_id: 'contaminants', description: 'Their contaminants', execution_type: 'tool', tool_id: 'contaminants_list', dependencies: ['shipments'], arguments: { shipment_ids: '${step[0].data.*.id}' } },
  ],
});

const setup = scriptedLlmPerTest();
let server: ScriptedLlmServer | null = null;

async function backendWith(script: ScriptedReply[], maxRetries = 2) {
  const started = await setup(script, { maxRetries });
  server = started.server;
  return llmBackend(started.config);
}

const lastUserMessage = (body: { messages: Array<{ role: string; content: string }> }) => body.messages.filter((m) => m.role === 'user').at(-1)!.content;

describe('LLM planning backend', () => {
  it('takes a good plan the first time, asking for JSON-schema structured output', async () => {
    const backend = await backendWith([{ content: goodPlan }]);
    const { tasks, notes } = await backend.stage1(input, registry, () => {});
    expect(tasks.map((t) => [t.task_id, t.tool_id, t.dependencies])).toEqual([
      ['shipments', 'shipments_list', []],
      ['contaminants', 'contaminants_list', ['shipments']],
    ]);
    expect(notes).toEqual(['Planned by scripted-model in 1 attempt.']);
    expect(server!.requests[0].body.response_format.type).toBe('json_schema');
    expect(server!.requests[0].body.messages[1].content).toContain('<<<TASK_DESCRIPTION');
  });

  it('retries an answer that is not JSON, feeding the error back', async () => {
    const backend = await backendWith([{ content: 'Sure! Here is the plan you asked for.' }, { content: '```json\n' + goodPlan + '\n```' }]);
    const progress: string[] = [];
    const { tasks } = await backend.stage1(input, registry, (m) => progress.push(m));
    expect(tasks).toHaveLength(2);
    expect(server!.requests).toHaveLength(2);
    expect(lastUserMessage(server!.requests[1].body)).toMatch(/previous answer was invalid/i);
    expect(progress.some((m) => m.startsWith('Attempt 1 was refused'))).toBe(true);
  });

  it('retries an answer that fails the schema', async () => {
    const backend = await backendWith([{ content: JSON.stringify({ tasks: [{ task_id: 7 }] }) }, { content: goodPlan }]);
    expect((await backend.stage1(input, registry, () => {})).tasks).toHaveLength(2);
    expect(lastUserMessage(server!.requests[1].body)).toContain('task_id');
  });

  it('gives up after maxRetries on a tool that is never in the registry, saying what went wrong each time', async () => {
    const unknown = JSON.stringify({ tasks: [{ task_id: 'a', execution_type: 'tool', tool_id: 'shipments_delete' }] });
    const backend = await backendWith([{ content: unknown }, { content: unknown }, { content: unknown }], 2);
    const error = await backend.stage1(input, registry, () => {}).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/after 3 attempts/);
    expect(error?.message.match(/shipments_delete/g)).toHaveLength(3);
    expect(server!.requests).toHaveLength(3);
  });

  it.each([
    ['agent', { agent_id: 'summariser' }, { uid: 'summariser', input_data: { text: 'report' } }],
    ['tool', { tool_id: 'facilities_list' }, { uid: 'facilities_list', input_data: { location: 'Berlin' } }],
    ['llm', { function_id: 'gpt-4o-mini' }, { uid: 'gpt-4o-mini', input_data: { prompt: 'Summarise' } }],
    ['dsl', { function_id: 'report_assembly_workflow' }, { uid: 'report_assembly_workflow', input_data: { sections: ['intro'] } }],
  ] as const)('plans Stage 2 for a %s task, checking the uid and input_data against the registry', async (type, target, answer) => {
    const task = PlannerTask.parse({ task_id: 't', description: 'Do it', execution_type: type, ...target });
    const wrong: Record<string, { input_data: Record<string, unknown>; path: string }> = {
      agent: { input_data: {}, path: 'input_data.text' },
      tool: { input_data: { location: 42 }, path: 'input_data.location' },
      dsl: { input_data: { sections: 'intro' }, path: 'input_data.sections' },
    };
    const wrongInput = wrong[type] ? [{ content: JSON.stringify({ uid: answer.uid, input_data: wrong[type].input_data }) }] : [];
    const backend = await backendWith([...wrongInput, { content: JSON.stringify({ uid: 'not-registered', input_data: {} }) }, { content: JSON.stringify(answer) }], 3);
    expect(await backend.stage2(task, {}, withSchemas)).toEqual(answer);
    const feedback = server!.requests.slice(1).map((r) => lastUserMessage(r.body));
    if (wrong[type]) expect(feedback[0]).toContain(wrong[type].path);
    expect(feedback.at(-1)).toContain('"not-registered" is not a registered');
  });
});
