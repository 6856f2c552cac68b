// The time axis of the dry-run Gantt: "nice" steps (1, 2, 5 × 10^k ms) at least a readable
// distance apart, and labels precise enough that neighbouring ticks never read the same.

const NICE = [1, 2, 5];
/** From a second up, steps a clock reads well: 1, 2, 5, 10, 15, 30 s, then minutes, then hours. */
const CLOCK_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400].map((s) => s * 1000);

/** The smallest nice step in ms whose ticks are at least `minGapPx` apart at `pxPerMs`. */
export function tickStep(pxPerMs: number, minGapPx = 80): number {
  if (!(pxPerMs > 0) || !Number.isFinite(pxPerMs)) return 1;
  const wanted = minGapPx / pxPerMs;
  if (wanted >= 1000) {
    const clock = CLOCK_STEPS.find((step) => step >= wanted);
    if (clock) return clock;
  }
  let power = 10 ** Math.floor(Math.log10(Math.max(wanted, 1e-3)));
  for (;;) {
    for (const n of NICE) if (n * power >= wanted) return Math.max(n * power, 1);
    power *= 10;
  }
}

/** Tick times in [from, to] (ms) at multiples of `step`. */
export function ticksBetween(from: number, to: number, step: number, max = 500): number[] {
  const ticks: number[] = [];
  for (let t = Math.ceil(Math.max(0, from) / step) * step; t <= to && ticks.length < max; t += step) ticks.push(t);
  return ticks;
}

/** A tick's label: ms below a second, seconds with as many decimals as the step needs, then m:ss. */
export function tickLabel(ms: number, step: number): string {
  if (step < 1000 && ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000 || step < 1000) {
    const decimals = step >= 1000 ? 0 : Math.min(3, Math.ceil(-Math.log10(step / 1000) - 1e-9));
    return `${(ms / 1000).toFixed(decimals)} s`;
  }
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  if (minutes >= 60) return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${minutes}:${String(seconds).padStart(2, '0')} min`;
}
