/** Milliseconds as an operator reads them: "850 ms", "12.4 s", "3 min 05 s". */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')} s`;
}

/** Dollars; null is a cost nobody estimated, which is "unknown", never $0. */
export function formatUsd(usd: number | null): string {
  if (usd === null) return 'unknown';
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

export const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;

/** A share of runs without rounding a rare outcome to 0% or a near-certain one to 100%. */
export function runShare(ratio: number): string {
  if (ratio === 0 || ratio === 1) return percent(ratio);
  const whole = Math.round(ratio * 100);
  if (whole === 0) return 'under 1%';
  if (whole === 100) return 'over 99%';
  return `${whole}%`;
}
