import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_SCHEMAS } from '@/lib/registry';
import { dispatchA2a } from './a2a-dispatch';
import { MAX_OUTPUT_BYTES } from './dispatch-types';
import { testDispatchRequest, unreachableUrl } from './dispatch-test-support';
import { startA2aTestAgent, type A2aTestAgent } from '@/scripts/test-servers/a2a-agent-test-support';

// The agent listens on 127.0.0.1, which the address guard refuses unless the operator allows it.
process.env.PLANGATE_DISPATCH_ALLOW = '127.0.0.1';

let agent: A2aTestAgent;
beforeAll(async () => {
  agent = await startA2aTestAgent();
});
afterAll(() => agent.close());
afterEach(() => Object.assign(agent.behaviour, { mode: 'complete', delayMs: 0, bigBytes: undefined }));

const writer = RESOURCE_SCHEMAS.agents.parse({ id: 'writer' });
const request = (options: Parameters<typeof testDispatchRequest>[0] = {}) => testDispatchRequest({ kind: 'agent', resource: writer, ...options });

describe('A2A dispatch against a real A2A agent', () => {
  it('sends the instructions and the input, follows the task to completed and returns its data artifact', async () => {
    const outcome = await dispatchA2a(request({ input: { city: 'Oslo' }, runId: 'run-a2a', task: { instructions: 'Plan a day.' } }), { protocol: 'a2a', url: agent.url });
    expect(outcome).toEqual({ state: 'succeeded', output: { echo: { city: 'Oslo' }, instructions: 'Plan a day.' } });
    expect(agent.countFor('run-a2a:task-1:1')).toBe(1);
  });

  it('polls a task that is still working until it completes', async () => {
    agent.behaviour.delayMs = 400;
    const outcome = await dispatchA2a(request({ input: { n: 1 } }), { protocol: 'a2a', url: agent.url });
    expect(outcome).toMatchObject({ state: 'succeeded', output: { echo: { n: 1 } } });
  });

  it('fails retryably when the agent fails the task, and without retrying when it rejects it', async () => {
    agent.behaviour.mode = 'fail';
    await expect(dispatchA2a(request(), { protocol: 'a2a', url: agent.url })).rejects.toMatchObject({ retryable: true, message: expect.stringContaining('the agent failed on purpose') });
    agent.behaviour.mode = 'reject';
    await expect(dispatchA2a(request(), { protocol: 'a2a', url: agent.url })).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('rejected the task') });
  });

  it('fails without retrying when the agent asks for input', async () => {
    agent.behaviour.mode = 'input-required';
    await expect(dispatchA2a(request(), { protocol: 'a2a', url: agent.url })).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('needs input') });
  });

  it('stops polling at the deadline and when the run aborts', async () => {
    agent.behaviour.delayMs = 3000;
    await expect(dispatchA2a(request({ task: { parameters: { timeout_seconds: 0.3 } } }), { protocol: 'a2a', url: agent.url })).rejects.toMatchObject({
      retryable: true,
      message: expect.stringContaining('did not answer within 0.3 s'),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('run cancelled')), 200);
    await expect(dispatchA2a(request({ signal: controller.signal }), { protocol: 'a2a', url: agent.url })).rejects.toMatchObject({ message: expect.stringContaining('aborted: run cancelled') });
  });

  it('refuses an over-size answer without retrying', async () => {
    agent.behaviour.bigBytes = MAX_OUTPUT_BYTES + 1;
    await expect(dispatchA2a(request(), { protocol: 'a2a', url: agent.url })).rejects.toMatchObject({ retryable: false, message: expect.stringContaining(`${MAX_OUTPUT_BYTES} bytes`) });
  });

  it('fails retryably when nothing listens, naming the endpoint', async () => {
    const url = await unreachableUrl('/');
    await expect(dispatchA2a(request(), { protocol: 'a2a', url })).rejects.toMatchObject({ retryable: true, message: expect.stringContaining(url) });
  });
});
