import { describe, expect, it } from 'vitest';
import { availableBackends, chooseBackend } from './choose-backend';

// Only the variables under test; the rest of a real environment does not matter here.
const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;
const llmEnv = { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'local-model' };

describe('choosing a planning backend', () => {
  it('plans with the rules by default, and names what a chosen backend lacks', () => {
    expect(chooseBackend(undefined, env({})).backend).toBe('rule-based');
    expect(() => chooseBackend(undefined, env({ PLANGATE_PLANNER: 'gpt' }))).toThrow('PLANGATE_PLANNER is "gpt"; use one of rule-based, llm, behavior-controller');
    expect(() => chooseBackend('llm', env({}))).toThrow('The LLM planner needs LLM_BASE_URL and LLM_MODEL');
    expect(chooseBackend('llm', env(llmEnv)).model).toBe('local-model');
  });

  it('offers the configured backends, the default first', () => {
    expect(availableBackends(env({}))).toEqual(['rule-based']);
    expect(availableBackends(env({ ...llmEnv, PLANGATE_PLANNER: 'llm' }))).toEqual(['llm', 'rule-based']);
  });
});
