/**
 * Test support: what a test file needs to run tasks against executors on 127.0.0.1 that sign
 * with a webhook secret, set up in one place for the engine's test files.
 */
import { afterAll, beforeAll } from 'vitest';
import { startScriptedExecutor, type ScriptedExecutor } from './scripted-executor-test-support';

/**
 * Sets a webhook secret in `secretEnv`, names it in PLANGATE_DISPATCH_SECRETS (beside any
 * already named) and allows 127.0.0.1, where the test servers listen: an endpoint may name
 * only variables the operator lists, and reach 127.0.0.1 only when the operator allows it.
 * Call it at the top of the file. Test files share their worker's process, and
 * scripts/vitest-file-env.ts puts the environment back once the file ends, so nothing set
 * here reaches the next file. Answers the secret.
 */
export function allowTestExecutors(secretEnv: string): string {
  const secret = `${secretEnv.toLowerCase()}-value`;
  process.env[secretEnv] = secret;
  process.env.PLANGATE_DISPATCH_SECRETS = [process.env.PLANGATE_DISPATCH_SECRETS, secretEnv].filter(Boolean).join(',');
  process.env.PLANGATE_DISPATCH_ALLOW = '127.0.0.1';
  return secret;
}

/**
 * allowTestExecutors, and a scripted executor (scripted-executor-test-support.ts) started
 * before the file's tests and closed after them (after the hooks of its describe blocks, which
 * stop their workers first). Answers the executor; it may be used once the file's tests run.
 */
export function scriptedExecutorForFile(secretEnv: string): ScriptedExecutor {
  allowTestExecutors(secretEnv);
  let executor: ScriptedExecutor | undefined;
  beforeAll(async () => {
    executor = await startScriptedExecutor();
  });
  afterAll(async () => {
    await executor?.close();
    executor = undefined;
  });
  // The one started for this file, looked up on each use: it exists only once beforeAll has run.
  return new Proxy({} as ScriptedExecutor, {
    get(_, key) {
      if (!executor) throw new Error('scriptedExecutorForFile: the executor is used before the file\'s tests start, or after they end');
      return Reflect.get(executor, key);
    },
  });
}
