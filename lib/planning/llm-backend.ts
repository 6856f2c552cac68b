import { z } from 'zod';
import { PlannerTask } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import { validatePlan } from '@/lib/validate';
import type { LlmConfig } from '@/lib/llm/llm-config';
import { generateStructured } from '@/lib/llm/structured-output';
import type { PlanningBackend } from './planning-types';
import { Stage2Result } from './planning-types';
import { stage1Prompt, stage2Prompt } from './prompts';
import { stage2Problems } from './stage2-check';

// An OpenAI-compatible model behind seed 001's loop: a structured answer is parsed and
// checked against the registry, and every failure goes back to the model as feedback.

const Stage1Answer = z.object({ tasks: z.array(PlannerTask).min(1, 'Plan at least one task') });

/** The registry problems a plan would be refused for: unknown or mismatched targets, bad parameters, references. */
function registryProblems(tasks: PlannerTask[], registry: Registry): string[] {
  return validatePlan({ planned_tasks: tasks }, registry)
    .issues.filter((issue) => issue.severity === 'error')
    .map((issue) => issue.message);
}

export function llmBackend(config: LlmConfig): PlanningBackend {
  return {
    backend: 'llm',
    model: config.model,
    label: `LLM planner: ${config.model} at ${new URL(config.baseURL).host}`,

    async stage1(input, registry, progress) {
      const { system, user } = stage1Prompt(input, registry);
      progress(`Asking ${config.model} for a plan`);
      const { value, attempts } = await generateStructured({
        config,
        system,
        user,
        schema: Stage1Answer,
        schemaName: 'stage1_plan',
        check: (answer) => registryProblems(answer.tasks, registry),
        onAttempt: ({ n, error }) => progress(error ? `Attempt ${n} was refused (${error}); asking again with the error` : `Attempt ${n}: answer received`),
      });
      return { tasks: value.tasks, notes: [`Planned by ${config.model} in ${attempts} attempt${attempts === 1 ? '' : 's'}.`] };
    },

    async stage2(task, inputData, registry) {
      const { system, user } = stage2Prompt(task, inputData, registry);
      const { value } = await generateStructured({
        config,
        system,
        user,
        schema: Stage2Result,
        schemaName: 'stage2_input',
        check: (answer) => stage2Problems(task, answer, registry),
      });
      return value;
    },
  };
}
