import { z } from 'zod';
import type { PlanDocument } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import { validatePlan } from '@/lib/validate';
import type { LlmConfig } from '@/lib/llm/llm-config';
import { generateStructured } from '@/lib/llm/structured-output';
import { applyReplacements, ReplanError } from './apply-replacements';
import { replanPrompt } from './replan-prompt';
import { Replacement, type Replanner } from './replan-types';

// An OpenAI-compatible model as seed 000's SubGraphRePlanner. Its answer is untrusted: it
// must replace exactly the marked tasks, apply cleanly (new ids, known dependencies, no
// cycle) and add no registry error to the plan; anything else goes back as feedback.

const ReplanAnswer = z.object({ replacements: z.array(Replacement).min(1, 'Replace at least one task') });
type ReplanAnswer = z.infer<typeof ReplanAnswer>;

function coverageProblems(answer: ReplanAnswer, taskIds: readonly string[]): string[] {
  const wanted = new Set(taskIds);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { replaces } of answer.replacements) {
    if (!wanted.has(replaces)) problems.push(`Task "${replaces}" is not marked for replanning; replace only the tasks in MARKED_TASKS`);
    else if (seen.has(replaces)) problems.push(`Task "${replaces}" has more than one replacement; give one (it may hold several tasks)`);
    seen.add(replaces);
  }
  for (const id of taskIds) if (!seen.has(id)) problems.push(`No replacement for task "${id}"; replace every task in MARKED_TASKS`);
  return problems;
}

/** Registry and reference errors the replacement brings into the plan (errors it already had are not the model's). */
function introducedErrors(before: PlanDocument, after: PlanDocument, registry: Registry): string[] {
  const errors = (doc: PlanDocument) =>
    validatePlan(doc.plan, registry, doc.subgraphs)
      .issues.filter((issue) => issue.severity === 'error')
      .map((issue) => issue.message);
  const old = new Set(errors(before));
  return errors(after).filter((message) => !old.has(message));
}

/** Everything wrong with an answer, for the model to fix; empty when it can be proposed. */
export function replanProblems(answer: ReplanAnswer, doc: PlanDocument, taskIds: readonly string[], registry: Registry): string[] {
  const coverage = coverageProblems(answer, taskIds);
  if (coverage.length) return coverage;
  let applied: PlanDocument;
  try {
    applied = applyReplacements(doc, answer.replacements, taskIds);
  } catch (error) {
    if (error instanceof ReplanError) return [error.message];
    throw error;
  }
  return introducedErrors(doc, applied, registry);
}

export function llmReplanner(config: LlmConfig): Replanner {
  return {
    backend: 'llm',
    model: config.model,
    label: `LLM replanner: ${config.model} at ${new URL(config.baseURL).host}`,

    async replan({ doc, taskIds, instructions, registry }) {
      const { system, user } = replanPrompt(doc, taskIds, instructions, registry);
      const { value, attempts } = await generateStructured({
        config,
        system,
        user,
        schema: ReplanAnswer,
        schemaName: 'replan_tasks',
        check: (answer) => replanProblems(answer, doc, taskIds, registry),
      });
      return { replacements: value.replacements, notes: [`Replanned by ${config.model} in ${attempts} attempt${attempts === 1 ? '' : 's'}.`] };
    },
  };
}
