import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PlannerTask } from '@/lib/plan';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import { behaviorControllerBackend } from './behavior-controller-backend';
import { Stage1Input } from './planning-types';
import { checkedStage2 } from './stage2-check';

// An external Behavior Controller, played by a real HTTP server speaking seed 000's protocol.

const registry = Registry.parse(DEMO_REGISTRY);
let server: Server | null = null;
const received: Array<{ path: string; body: Record<string, unknown> }> = [];

afterEach(async () => {
  received.length = 0;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
});

async function controller(answers: Record<string, unknown>): Promise<string> {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: JSON.parse(text) });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answers[request.url ?? ''] ?? { success: false, error: 'unknown path' }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/bc`;
}

describe('Behavior Controller backend', () => {
  it('sends seed 000 payloads and reads { success, data } answers for both phases', async () => {
    const url = await controller({
      '/bc/process-phase-1-task': { success: true, data: [{ task_id: 'sum', description: 'Summarise', execution_type: 'agent', agent_id: 'summariser' }] },
      '/bc/process-phase-2-task': { success: true, data: { uid: 'summariser', input_data: { text: 'Full report' }, plan: 'pick the summariser' } },
    });
    const backend = behaviorControllerBackend(url, 'gpt-4');
    const { tasks } = await backend.stage1(Stage1Input.parse({ task_description: 'Summarize dataset' }), registry, () => {});
    expect(tasks.map((t) => [t.task_id, t.agent_id])).toEqual([['sum', 'summariser']]);
    const phase1 = received[0].body as { search_id: string; phase_1_data: { task_input_data: string; n_history_samples: number; llm_data: unknown } };
    expect(phase1.search_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(phase1.phase_1_data).toMatchObject({ n_history_samples: 0, llm_data: { model: 'gpt-4' } });
    expect(phase1.phase_1_data.task_input_data).toContain('Summarize dataset');

    const stage2 = await backend.stage2(tasks[0], { text: 'Full report' }, registry);
    expect(stage2).toEqual({ uid: 'summariser', input_data: { text: 'Full report' }, plan: 'pick the summariser' });
    expect(received[1].path).toBe('/bc/process-phase-2-task');
  });

  it("reports the controller's refusal and a uid outside the registry", async () => {
    const url = await controller({
      '/bc/process-phase-1-task': { success: false, error: 'model overloaded' },
      '/bc/process-phase-2-task': { success: true, data: { uid: 'ghost', input_data: {} } },
    });
    const backend = behaviorControllerBackend(url);
    await expect(backend.stage1(Stage1Input.parse({ task_description: 'x' }), registry, () => {})).rejects.toThrow('The Behavior Controller refused: model overloaded');
    const task = PlannerTask.parse({ task_id: 't', execution_type: 'agent' });
    await expect(checkedStage2(backend, task, {}, registry)).rejects.toThrow(/"ghost" is not a registered agent resource/);
  });
});
