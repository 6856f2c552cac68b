import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveRunState, idempotencyKey, RUN_STATES, TASK_STATES, type TaskState } from './run-states';
import { maxAttempts, requiresApproval, retryDelaySeconds, retryLimit, timeoutSeconds } from './task-policy';

// A run's state as people see it follows from its tasks', except what a person decided.

describe('a run state from its tasks', () => {
  it('succeeds when every task succeeded, needs a replan once one failed, shows a waiting gate', () => {
    expect(deriveRunState('running', { succeeded: 4 })).toBe('succeeded');
    expect(deriveRunState('running', { succeeded: 2, failed: 1, running: 1 })).toBe('needs_replan');
    expect(deriveRunState('running', { succeeded: 2, blocked: 1 })).toBe('needs_replan');
    expect(deriveRunState('running', { succeeded: 1, awaiting_approval: 1, running: 1 })).toBe('awaiting_approval');
    expect(deriveRunState('awaiting_approval', { succeeded: 1, pending: 1 })).toBe('running');
  });

  it('keeps a pause while anything is left, a failure meanwhile too, and never leaves cancelled or failed', () => {
    expect(deriveRunState('paused', { succeeded: 1, pending: 2 })).toBe('paused');
    expect(deriveRunState('paused', { succeeded: 1, failed: 1, blocked: 1 })).toBe('paused');
    expect(deriveRunState('paused', { succeeded: 3 })).toBe('succeeded');
    expect(deriveRunState('cancelled', { succeeded: 3 })).toBe('cancelled');
    expect(deriveRunState('failed', { pending: 3 })).toBe('failed');
  });

  it('always answers a run state, and succeeded only when every task did', () => {
    const counts = fc.dictionary(fc.constantFrom(...TASK_STATES), fc.nat(5)) as fc.Arbitrary<Partial<Record<TaskState, number>>>;
    fc.assert(
      fc.property(fc.constantFrom(...RUN_STATES), counts, (current, tasks) => {
        const next = deriveRunState(current, tasks);
        expect(RUN_STATES).toContain(next);
        const total = Object.values(tasks).reduce((a, b) => a + (b ?? 0), 0);
        const done = (tasks.succeeded ?? 0) + (tasks.skipped ?? 0);
        if (next === 'succeeded' && current !== 'cancelled' && current !== 'failed') expect(done).toBe(total);
      }),
    );
  });
});

describe("a task's run policy, from its approved parameters", () => {
  it('reads the gate, retries and timeout, within their bounds', () => {
    expect(requiresApproval({ parameters: { requires_approval: true } })).toBe(true);
    expect(requiresApproval({ parameters: { requires_approval: 'yes' } })).toBe(false);
    expect(retryLimit({ parameters: {} })).toBe(2);
    expect(retryLimit({ parameters: { retries: 99 } })).toBe(10);
    expect(retryLimit({ parameters: { retries: -1 } })).toBe(2);
    expect(timeoutSeconds({ parameters: {} })).toBe(60);
    expect(timeoutSeconds({ parameters: { timeout_seconds: 0.5 } })).toBe(0.5);
    expect(timeoutSeconds({ parameters: { timeout_seconds: 10_000 } })).toBe(900);
    expect(maxAttempts({ parameters: { retries: 0 } })).toBe(1);
    expect(maxAttempts({ parameters: {} })).toBe(3);
    expect(retryDelaySeconds({ parameters: {} })).toBe(2);
    expect(retryDelaySeconds({ parameters: { retry_delay_seconds: 0 } })).toBe(0);
    expect(retryDelaySeconds({ parameters: { retry_delay_seconds: 10_000 } })).toBe(300);
  });
});

describe('the idempotency key', () => {
  it('names the run, the task and the generation, not the attempt', () => {
    expect(idempotencyKey('r1', 't1', 1)).toBe('r1:t1:1');
    expect(idempotencyKey('r1', 't1', 2)).not.toBe(idempotencyKey('r1', 't1', 1));
  });
});
