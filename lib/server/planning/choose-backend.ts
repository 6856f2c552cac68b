import 'server-only';
import { llmConfigFromEnv, type LlmConfig } from '@/lib/llm/llm-config';
import { behaviorControllerBackend } from '@/lib/planning/behavior-controller-backend';
import { llmBackend } from '@/lib/planning/llm-backend';
import { BACKEND_IDS, type BackendId, type PlanningBackend } from '@/lib/planning/planning-types';
import { ruleBasedBackend } from '@/lib/planning/rule-based-backend';

// Choosing a backend from the environment is the server's composition, not planning: the
// planners in lib/planning take their configuration as arguments and read no environment.

/**
 * The backend PLANGATE_PLANNER names (rule-based by default, the offline choice), or the
 * one a request asks for. A backend that is not configured is a clear error, not a silent
 * fall-back to another one.
 */
export function chooseBackend(requested?: BackendId, env: NodeJS.ProcessEnv = process.env): PlanningBackend {
  const id = chosenBackendId(requested, env);
  if (id === 'llm') return llmBackend(requiredLlmConfig(env));
  if (id === 'behavior-controller') {
    if (!env.BEHAVIOR_CONTROLLER_URL) throw new Error('The Behavior Controller planner needs BEHAVIOR_CONTROLLER_URL');
    if (!URL.canParse(env.BEHAVIOR_CONTROLLER_URL)) throw new Error('BEHAVIOR_CONTROLLER_URL is not a URL');
    return behaviorControllerBackend(env.BEHAVIOR_CONTROLLER_URL, env.LLM_MODEL || undefined);
  }
  return ruleBasedBackend;
}

/** The backend a request names, else PLANGATE_PLANNER's, else rule-based; a misspelt PLANGATE_PLANNER is an error. */
export function chosenBackendId(requested?: BackendId, env: NodeJS.ProcessEnv = process.env): BackendId {
  const configured = env.PLANGATE_PLANNER;
  if (!requested && configured && !(BACKEND_IDS as readonly string[]).includes(configured)) {
    throw new Error(`PLANGATE_PLANNER is "${configured}"; use one of ${BACKEND_IDS.join(', ')}`);
  }
  return requested ?? (configured as BackendId | undefined) ?? 'rule-based';
}

/** The LLM endpoint from the environment, or an error naming what is missing. */
export function requiredLlmConfig(env: NodeJS.ProcessEnv = process.env): LlmConfig {
  const config = llmConfigFromEnv(env);
  if (!config) throw new Error('The LLM planner needs LLM_BASE_URL and LLM_MODEL');
  return config;
}

/** Which backends this deployment can use, for the planner choice in the UI; the configured default first. */
export function availableBackends(env: NodeJS.ProcessEnv = process.env): BackendId[] {
  const available: BackendId[] = [
    'rule-based',
    ...(llmConfigFromEnv(env) ? (['llm'] as const) : []),
    ...(env.BEHAVIOR_CONTROLLER_URL ? (['behavior-controller'] as const) : []),
  ];
  const preferred = env.PLANGATE_PLANNER as BackendId | undefined;
  return preferred && available.includes(preferred) ? [preferred, ...available.filter((id) => id !== preferred)] : available;
}
