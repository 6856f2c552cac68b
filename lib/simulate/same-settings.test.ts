import { describe, expect, it } from 'vitest';
import type { DryRunOptions } from './dry-run';
import { sameSettings } from './same-settings';

describe('sameSettings', () => {
  it('compares options as they act: defaults, order and redundant overrides do not matter', () => {
    expect(sameSettings({ workers: 2 }, { workers: 2, runs: 1, seed: 1, failure_probability: 0, fail_task_ids: [], limits: {} })).toBe(true);
    expect(sameSettings({ workers: 2, fail_task_ids: ['b', 'a'] }, { workers: 2, fail_task_ids: ['a', 'b', 'a'] })).toBe(true);
    expect(sameSettings({ workers: 2, limits: { llm: 2, tool: 1 } }, { workers: 2, limits: { tool: 1, llm: 2 } })).toBe(true);
    expect(
      sameSettings({ workers: 2, failure_probability: 0.1, failure_probability_overrides: { a: 0.1 } }, { workers: 2, failure_probability: 0.1 }),
    ).toBe(true);
  });

  it('tells apart every setting that changes the simulation', () => {
    const base = { workers: 2, limits: { llm: 2 }, fail_task_ids: ['a'], failure_probability: 0.001, failure_probability_overrides: { b: 0.5 }, runs: 100, seed: 7 };
    expect(sameSettings(base, { ...base })).toBe(true);
    const changes: Array<Partial<DryRunOptions>> = [
      { workers: 3 },
      { limits: { llm: 3 } },
      { limits: {} },
      { fail_task_ids: [] },
      { failure_probability: 0.0001 },
      { failure_probability_overrides: { b: 0.4 } },
      { failure_probability_overrides: {} },
      { runs: 200 },
      { seed: 8 },
    ];
    for (const change of changes) {
      expect(sameSettings(base, { ...base, ...change })).toBe(false);
    }
  });
});
