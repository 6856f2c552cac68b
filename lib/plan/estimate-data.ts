import type { EstimateData } from './schema';

// `estimate_data` is free-form (seed 000 types it `Any`). Plangate reads three keys from it
// when they are usable figures; everything else is kept and reported, never dropped.

const KNOWN_KEYS = ['latency_ms', 'cost_usd', 'tokens'] as const;
type KnownKey = (typeof KNOWN_KEYS)[number];

export interface ReadEstimate {
  latency_ms?: number;
  cost_usd?: number;
  tokens?: number;
  /** What was given but not read: other keys, unusable values, or a value that is not an object. */
  unread: string[];
}

const isFigure = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The figures Plangate can use from a task's `estimate_data`, and what it could not. */
export function readEstimate(value: EstimateData | null | undefined): ReadEstimate {
  if (value === null || value === undefined) return { unread: [] };
  if (typeof value !== 'object' || Array.isArray(value)) return { unread: [`a ${Array.isArray(value) ? 'list' : typeof value} value`] };
  const read: ReadEstimate = { unread: [] };
  for (const [key, figure] of Object.entries(value)) {
    if ((KNOWN_KEYS as readonly string[]).includes(key) && isFigure(figure)) read[key as KnownKey] = figure;
    else read.unread.push((KNOWN_KEYS as readonly string[]).includes(key) ? `${key} (not a non-negative number)` : key);
  }
  return read;
}
