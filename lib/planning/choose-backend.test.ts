import { describe, expect, it } from 'vitest';
import { availableBackends, chooseBackend } from './choose-backend';

const llmEnv = { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'local-model' };

describe('choosing a planning backend', () => {
  it('plans with the rules by default, and names what a chosen backend lacks', () => {
    expect(chooseBackend(undefined, {}).backend).toBe('rule-based');
    expect(() => chooseBackend(undefined, { PLANGATE_PLANNER: 'gpt' })).toThrow('PLANGATE_PLANNER is "gpt"; use one of rule-based, llm, behavior-controller');
    expect(() => chooseBackend('llm', {})).toThrow('The LLM planner needs LLM_BASE_URL and LLM_MODEL');
    expect(chooseBackend('llm', llmEnv).model).toBe('local-model');
  });

  it('offers the configured backends, the default first', () => {
    expect(availableBackends({})).toEqual(['rule-based']);
    expect(availableBackends({ ...llmEnv, PLANGATE_PLANNER: 'llm' })).toEqual(['llm', 'rule-based']);
  });
});
