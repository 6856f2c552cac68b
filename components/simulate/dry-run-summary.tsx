import type { DryRunResult } from '@/lib/simulate/dry-run';
import type { StoredDryRun } from '@/lib/api/operation-schemas';
import { formatMs, formatUsd, percent } from './format';

function delta(now: number, before: number | undefined, format: (n: number) => string) {
  if (before === undefined || before === now) return null;
  return (
    <span className={now > before ? 'text-rose-700' : 'text-emerald-700'}>
      {' '}
      ({now > before ? '+' : '−'}
      {format(Math.abs(now - before))} since the previous run)
    </span>
  );
}

/** The headline figures of a dry run, with the change since the plan's previous run. */
export function DryRunSummary({ run }: { run: Pick<StoredDryRun, 'id' | 'revision' | 'previous'> & { result: DryRunResult } }) {
  const { result } = run;
  const before = run.previous?.summary;
  const rows: Array<[string, React.ReactNode]> = [
    ['Makespan', <>{formatMs(result.makespan_ms)}{delta(result.makespan_ms, before?.makespan_ms, formatMs)}</>],
    ['Lower bound', formatMs(result.lower_bound_ms)],
    ['Critical path', `${result.critical_path.length} tasks`],
    ['Total cost', <>{formatUsd(result.total_cost_usd)}{delta(result.total_cost_usd, before?.total_cost_usd, formatUsd)}</>],
    ['Peak parallelism', String(result.peak_parallelism)],
    ['Utilisation', percent(result.utilisation)],
    ['Failed / skipped', `${result.failed_task_ids.length} / ${result.skipped_task_ids.length}`],
  ];
  if (result.monte_carlo) {
    const mc = result.monte_carlo;
    rows.push(
      [`Makespan p50 / p95 (${mc.runs} runs, p=${mc.failure_probability})`, `${formatMs(mc.makespan_ms.p50)} / ${formatMs(mc.makespan_ms.p95)}`],
      ['Cost p50 / p95', `${formatUsd(mc.cost_usd.p50)} / ${formatUsd(mc.cost_usd.p95)}`],
      ['Runs with a failure', `${mc.failed_runs} of ${mc.runs}`],
    );
  }
  return (
    <dl aria-label="Dry-run figures" className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs text-slate-500">{label}</dt>
          <dd className="font-medium tabular-nums">{value}</dd>
        </div>
      ))}
      {run.previous && (
        <p className="col-span-full text-xs text-slate-500">
          Compared with the previous dry run (#{run.previous.id}, revision {run.previous.revision}).
        </p>
      )}
    </dl>
  );
}
