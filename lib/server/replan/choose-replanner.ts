import 'server-only';
import { chosenBackendId, requiredLlmConfig } from '../planning/choose-backend';
import type { BackendId } from '@/lib/planning/planning-types';
import { llmReplanner } from '@/lib/replan/llm-replanner';
import type { Replanner } from '@/lib/replan/replan-types';
import { ruleBasedReplanner } from '@/lib/replan/rule-based-replanner';

/**
 * The replanner for the backend a request names, else PLANGATE_PLANNER's (rule-based by
 * default). Like planning, an unavailable choice is an error, never a quiet substitute.
 */
export function chooseReplanner(requested?: BackendId, env: NodeJS.ProcessEnv = process.env): Replanner {
  const id = chosenBackendId(requested, env);
  if (id === 'llm') return llmReplanner(requiredLlmConfig(env));
  if (id === 'behavior-controller') {
    throw new Error('The Behavior Controller protocol has no replanning call; use backend "llm" or "rule-based"');
  }
  return ruleBasedReplanner;
}
