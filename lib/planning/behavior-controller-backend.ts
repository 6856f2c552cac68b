import { z } from 'zod';
import { redactUrl } from '@/lib/llm/redact-url';
import { PlannerTask } from '@/lib/plan';
import type { PlanningBackend } from './planning-types';
import { Stage2Result } from './planning-types';
import { stage1Prompt, stage2Prompt } from './prompts';

// An external Behavior Controller speaking seed 000's protocol: POST the prompt to
// /process-phase-1-task or /process-phase-2-task, read { success, data } or { success: false, error }.

const Envelope = z.union([
  z.object({ success: z.literal(true), data: z.unknown() }),
  z.object({ success: z.literal(false), error: z.unknown() }),
]);

const Phase1Data = z.union([z.array(PlannerTask), z.object({ tasks: z.array(PlannerTask) }).transform((d) => d.tasks)]);

async function call(baseUrl: string, path: string, phase: 'phase_1_data' | 'phase_2_data', prompt: string, model: string): Promise<unknown> {
  const url = new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ search_id: crypto.randomUUID(), [phase]: { task_input_data: prompt, n_history_samples: 0, llm_data: { model } } }),
    signal: AbortSignal.timeout(120_000),
  }).catch((error: unknown) => {
    throw new Error(`The Behavior Controller at ${redactUrl(url)} could not be reached: ${(error as Error).message}`);
  });
  const body = Envelope.safeParse(await response.json().catch(() => null));
  if (!response.ok || !body.success) throw new Error(`The Behavior Controller at ${redactUrl(url)} answered ${response.status} without a { success, data } body`);
  if (!body.data.success) throw new Error(`The Behavior Controller refused: ${typeof body.data.error === 'string' ? body.data.error : JSON.stringify(body.data.error)}`);
  return body.data.data;
}

export function behaviorControllerBackend(baseUrl: string, model = 'controller default'): PlanningBackend {
  return {
    backend: 'behavior-controller',
    model,
    label: `Behavior Controller at ${new URL(baseUrl).host}`,

    async stage1(input, registry, progress) {
      progress('Sending the job to the Behavior Controller');
      const { system, user } = stage1Prompt(input, registry);
      const data = Phase1Data.safeParse(await call(baseUrl, 'process-phase-1-task', 'phase_1_data', `${system}\n\n${user}`, model));
      if (!data.success) throw new Error(`The Behavior Controller's plan is not a list of PlannerTasks: ${data.error.issues[0].message}`);
      return { tasks: data.data, notes: ['Planned by the Behavior Controller.'] };
    },

    async stage2(task, inputData, registry) {
      const { system, user } = stage2Prompt(task, inputData, registry);
      const data = Stage2Result.safeParse(await call(baseUrl, 'process-phase-2-task', 'phase_2_data', `${system}\n\n${user}`, model));
      if (!data.success) throw new Error(`The Behavior Controller's Stage 2 answer is not { uid, input_data }: ${data.error.issues[0].message}`);
      return data.data;
    },
  };
}
