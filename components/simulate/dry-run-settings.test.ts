import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, hasSettings, settingsFromParams, writeSettings, type DryRunSettings } from './dry-run-settings';

describe('dry-run settings in the address', () => {
  it('round-trips every setting, ids with odd characters included', () => {
    const settings: DryRunSettings = {
      workers: 3,
      limits: { agent: 2, tool: 5 },
      fail_task_ids: ['step-0', 'a:b&c=d'],
      failure_probability: 0.0001,
      failure_probability_overrides: { 'x:y': 0.5, plain: 1 },
      runs: 200,
      seed: -7,
    };
    const params = writeSettings(new URLSearchParams('task=t1'), settings);
    const again = new URLSearchParams(params.toString());
    expect(settingsFromParams(again)).toEqual(settings);
    expect(again.get('task')).toBe('t1');
    expect(hasSettings(again)).toBe(true);
  });

  it('falls back to the base for what is missing or does not parse', () => {
    const base = { ...DEFAULT_SETTINGS, workers: 8, seed: 9 };
    const parsed = settingsFromParams(new URLSearchParams('workers=0&p=2&runs=x&override=abc:t&override=0.2:'), base);
    expect(parsed).toEqual({ ...base, failure_probability_overrides: {} });
    expect(hasSettings(new URLSearchParams('task=t1'))).toBe(false);
  });
});
