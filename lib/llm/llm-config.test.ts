import { describe, expect, it } from 'vitest';
import { llmConfigFromEnv } from './llm-config';

describe('llmConfigFromEnv', () => {
  it('is null without LLM_BASE_URL or LLM_MODEL', () => {
    expect(llmConfigFromEnv({})).toBeNull();
    expect(llmConfigFromEnv({ LLM_BASE_URL: 'http://127.0.0.1:1/v1' })).toBeNull();
    expect(llmConfigFromEnv({ LLM_MODEL: 'm', LLM_BASE_URL: '  ' })).toBeNull();
  });

  it('fills the defaults', () => {
    expect(llmConfigFromEnv({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', LLM_MODEL: 'qwen', LLM_API_KEY: '' })).toEqual({
      baseURL: 'http://127.0.0.1:11434/v1',
      apiKey: 'unused',
      model: 'qwen',
      temperature: 0.2,
      maxRetries: 2,
      structuredOutput: 'json_schema',
      timeoutMs: 120_000,
    });
  });

  it('reads every setting', () => {
    expect(
      llmConfigFromEnv({
        LLM_BASE_URL: 'https://api.example.com/v1',
        LLM_MODEL: 'gpt',
        LLM_API_KEY: 'sk-test',
        LLM_TEMPERATURE: '0',
        LLM_MAX_RETRIES: '0',
        LLM_STRUCTURED_OUTPUT: 'json_object',
        LLM_TIMEOUT_MS: '5000',
      }),
    ).toMatchObject({ apiKey: 'sk-test', temperature: 0, maxRetries: 0, structuredOutput: 'json_object', timeoutMs: 5000 });
  });

  it('names the variable that is malformed', () => {
    const base = { LLM_BASE_URL: 'http://127.0.0.1:1/v1', LLM_MODEL: 'm' };
    expect(() => llmConfigFromEnv({ ...base, LLM_TEMPERATURE: 'warm' })).toThrow(/LLM_TEMPERATURE/);
    expect(() => llmConfigFromEnv({ ...base, LLM_MAX_RETRIES: '1.5' })).toThrow(/LLM_MAX_RETRIES/);
    expect(() => llmConfigFromEnv({ ...base, LLM_STRUCTURED_OUTPUT: 'tools' })).toThrow(/LLM_STRUCTURED_OUTPUT/);
    expect(() => llmConfigFromEnv({ ...base, LLM_BASE_URL: 'localhost:11434' })).toThrow(/LLM_BASE_URL/);
  });
});
