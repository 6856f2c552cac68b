import { EXECUTION_TYPES } from '@/lib/plan';
import type { DryRunOptions } from '@/lib/simulate/dry-run';

// A dry run's settings as they travel in the page's address, so a dry run can be shared,
// repeated, and survives a reload: ?workers=4&p=0.001&runs=200&seed=7&fail=<id>&limit.agent=2
// &override=<probability>:<id>. Whatever does not parse falls back to the default.

/** Every option of a dry run, with nothing left to its default. */
export type DryRunSettings = Required<DryRunOptions>;

export const DEFAULT_SETTINGS: DryRunSettings = { workers: 4, limits: {}, fail_task_ids: [], failure_probability: 0, failure_probability_overrides: {}, runs: 1, seed: 1 };

const SETTING_KEYS = ['workers', 'p', 'runs', 'seed', 'fail', 'override', ...EXECUTION_TYPES.map((t) => `limit.${t}`)];

function integer(text: string | null, min: number, max: number): number | undefined {
  if (text === null || !/^-?\d+$/.test(text.trim())) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

function probability(text: string | null): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined;
}

/** Whether the address names any dry-run setting (else the page starts from the latest run's). */
export function hasSettings(params: URLSearchParams): boolean {
  return SETTING_KEYS.some((key) => params.has(key));
}

export function settingsFromParams(params: URLSearchParams, base: DryRunSettings = DEFAULT_SETTINGS): DryRunSettings {
  const limits: Partial<Record<string, number>> = {};
  for (const type of EXECUTION_TYPES) {
    const n = integer(params.get(`limit.${type}`), 1, 10_000);
    if (n !== undefined) limits[type] = n;
  }
  const overrides: Record<string, number> = {};
  for (const entry of params.getAll('override')) {
    const colon = entry.indexOf(':');
    const p = colon > 0 ? probability(entry.slice(0, colon)) : undefined;
    if (p !== undefined && entry.slice(colon + 1)) overrides[entry.slice(colon + 1)] = p;
  }
  return {
    workers: integer(params.get('workers'), 1, 10_000) ?? base.workers,
    limits: Object.keys(limits).length ? limits : base.limits,
    fail_task_ids: params.has('fail') ? [...new Set(params.getAll('fail').filter(Boolean))] : base.fail_task_ids,
    failure_probability: probability(params.get('p')) ?? base.failure_probability,
    failure_probability_overrides: params.has('override') ? overrides : base.failure_probability_overrides,
    runs: integer(params.get('runs'), 1, 10_000) ?? base.runs,
    seed: integer(params.get('seed'), Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) ?? base.seed,
  };
}

/** Writes the settings into `params`, replacing any there; other parameters (?task=) stay. */
export function writeSettings(params: URLSearchParams, settings: DryRunSettings): URLSearchParams {
  for (const key of SETTING_KEYS) params.delete(key);
  params.set('workers', String(settings.workers));
  for (const type of EXECUTION_TYPES) if (settings.limits[type] !== undefined) params.set(`limit.${type}`, String(settings.limits[type]));
  if (settings.failure_probability > 0) params.set('p', String(settings.failure_probability));
  for (const [id, p] of Object.entries(settings.failure_probability_overrides)) params.append('override', `${p}:${id}`);
  if (settings.runs !== 1) params.set('runs', String(settings.runs));
  params.set('seed', String(settings.seed));
  for (const id of settings.fail_task_ids) params.append('fail', id);
  return params;
}
