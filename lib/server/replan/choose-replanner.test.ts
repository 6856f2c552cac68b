import { describe, expect, it } from 'vitest';
import { chooseReplanner } from './choose-replanner';

// Only the variables under test; the rest of a real environment does not matter here.
const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;
const llmEnv = { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'local-model' };

describe('chooseReplanner', () => {
  it('is rule-based unless asked or configured otherwise', () => {
    expect(chooseReplanner(undefined, env({})).backend).toBe('rule-based');
    expect(chooseReplanner(undefined, env({ ...llmEnv, PLANGATE_PLANNER: 'llm' })).model).toBe('local-model');
    expect(chooseReplanner('rule-based', env({ ...llmEnv, PLANGATE_PLANNER: 'llm' })).backend).toBe('rule-based');
  });

  it('refuses what it cannot do rather than substituting', () => {
    expect(() => chooseReplanner('llm', env({}))).toThrow('The LLM planner needs LLM_BASE_URL and LLM_MODEL');
    expect(() => chooseReplanner('behavior-controller', env({ BEHAVIOR_CONTROLLER_URL: 'http://bc' }))).toThrow(
      'The Behavior Controller protocol has no replanning call; use backend "llm" or "rule-based"',
    );
    expect(() => chooseReplanner(undefined, env({ PLANGATE_PLANNER: 'oracle' }))).toThrow('PLANGATE_PLANNER is "oracle"');
  });
});
