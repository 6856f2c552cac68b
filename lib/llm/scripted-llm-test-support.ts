import { afterEach } from 'vitest';
import type { LlmConfig } from './llm-config';
import { startScriptedLlmServer, type ScriptedLlmServer, type ScriptedReply } from './scripted-llm-server';

/**
 * For a test file: `setup(script)` starts a scripted OpenAI-compatible server and gives a
 * config pointing at it; each test's server is closed after it.
 */
export function scriptedLlmPerTest() {
  let server: ScriptedLlmServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async function setup(script: ScriptedReply[], overrides: Partial<LlmConfig> = {}): Promise<{ server: ScriptedLlmServer; config: LlmConfig }> {
    server = await startScriptedLlmServer(script);
    const config: LlmConfig = {
      baseURL: server.url,
      apiKey: 'test-key',
      model: 'scripted-model',
      temperature: 0.2,
      maxRetries: 2,
      structuredOutput: 'json_schema',
      timeoutMs: 10_000,
      ...overrides,
    };
    return { server, config };
  };
}
