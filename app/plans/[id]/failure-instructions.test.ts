import { describe, expect, it } from 'vitest';
import { failureInstructions } from './failure-instructions';

const runId = '1a2b3c4d-0000-4000-8000-000000000000';

describe('failureInstructions', () => {
  it('says per failed task which run it failed in, after how many attempts, and why', () => {
    const text = failureInstructions(runId, [
      { task_id: 'fetch', attempts: 3, error: 'connect ECONNREFUSED\n127.0.0.1:9' },
      { task_id: 'parse', attempts: 1, error: null },
    ]);
    expect(text.split('\n')).toEqual([
      'Task fetch failed in run 1a2b3c4d after 3 attempts: connect ECONNREFUSED 127.0.0.1:9',
      'Task parse failed in run 1a2b3c4d after 1 attempt: no error recorded',
    ]);
  });

  it('cuts a long error to about 300 characters and keeps the whole within the replan request’s 4,000', () => {
    const failed = Array.from({ length: 30 }, (_, i) => ({ task_id: `t${i}`, attempts: 1, error: 'x'.repeat(1000) }));
    const text = failureInstructions(runId, failed);
    const lines = text.split('\n');
    expect(lines[0]!.length).toBeLessThan(400);
    expect(lines[0]).toMatch(/…$/);
    expect(text.length).toBeLessThanOrEqual(4000);
    expect(lines.at(-1)).toMatch(/^…and \d+ more failed tasks/);
  });
});
