import type { DryRunResult, MonteCarloSummary } from '@/lib/simulate/dry-run';
import type { StoredDryRun } from '@/lib/api/operation-schemas';
import { formatMs, formatUsd, percent, runShare } from './format';

type Previous = NonNullable<StoredDryRun['previous']>;

/** The change since the previous run; null when there is none to show or nothing to compare. */
function delta(now: number | null, before: number | null | undefined, format: (n: number) => string) {
  if (now === null || before === null || before === undefined || before === now) return null;
  return (
    <span className={now > before ? 'text-rose-700' : 'text-emerald-700'}>
      {' '}
      ({now > before ? '+' : '−'}
      {format(Math.abs(now - before))} since the previous run)
    </span>
  );
}

const spread = (figures: { p50: number; p95: number } | null | undefined, format: (n: number) => string, none: string) =>
  figures ? `${format(figures.p50)} / ${format(figures.p95)}` : none;

function monteCarloRows(mc: MonteCarloSummary): Array<[string, React.ReactNode]> {
  const probability = `p = ${mc.failure_probability}${mc.failure_probability_overrides ? `, ${mc.failure_probability_overrides} tasks with their own` : ''}`;
  // Dry runs stored before completion rates were reported mixed failed runs into the percentiles.
  if (mc.completion_rate === undefined || mc.completed_runs === undefined) {
    return [
      [`Makespan p50 / p95 (all ${mc.runs} runs, ${probability})`, spread(mc.makespan_ms, formatMs, '—')],
      ['Cost p50 / p95 (all runs)', spread(mc.cost_usd, formatUsd, 'unknown')],
      ['Runs with a failure', `${mc.failed_runs} of ${mc.runs}`],
    ];
  }
  const noneCompleted = 'no run completed';
  return [
    [`Makespan p50 / p95 (${mc.completed_runs} completed runs)`, spread(mc.makespan_ms, formatMs, noneCompleted)],
    ['Cost p50 / p95 (completed runs)', mc.completed_runs === 0 ? noneCompleted : spread(mc.cost_usd, formatUsd, 'unknown')],
    [`Time to first failure p50 / p95 (${mc.failed_runs} failed runs)`, spread(mc.time_to_first_failure_ms, formatMs, 'no run failed')],
    ['Runs simulated', `${mc.runs} (${probability})`],
  ];
}

function comparison(previous: Previous) {
  const which = `the previous dry run (#${previous.number}, revision ${previous.revision})`;
  return previous.same_settings ? `Compared with ${which}, which had the same settings.` : `No change shown: settings differ from ${which}.`;
}

/** The headline figures of a dry run, with the change since the plan's previous run when both had the same settings. */
export function DryRunSummary({ run }: { run: Pick<StoredDryRun, 'id' | 'revision' | 'previous'> & { result: DryRunResult } }) {
  const { result } = run;
  const before = run.previous?.same_settings ? run.previous.summary : undefined;
  const failures = result.failed_task_ids.length > 0;
  const rows: Array<[string, React.ReactNode]> = [
    ['Makespan', <>{formatMs(result.makespan_ms)}{delta(result.makespan_ms, before?.makespan_ms, formatMs)}</>],
    [failures ? 'Lower bound (tasks that run)' : 'Lower bound', formatMs(result.lower_bound_ms)],
  ];
  if (failures && result.plan_lower_bound_ms !== undefined && result.plan_lower_bound_ms !== result.lower_bound_ms) {
    rows.push(['Lower bound if nothing fails', formatMs(result.plan_lower_bound_ms)]);
  }
  rows.push(
    ['Critical path', `${result.critical_path.length} tasks`],
    ['Total cost', <>{formatUsd(result.total_cost_usd)}{delta(result.total_cost_usd, before?.total_cost_usd, formatUsd)}</>],
    ['Peak parallelism', String(result.peak_parallelism)],
    ['Utilisation', percent(result.utilisation)],
    ['Failed / skipped', `${result.failed_task_ids.length} / ${result.skipped_task_ids.length}`],
  );
  const mc = result.monte_carlo;
  return (
    <section aria-label="Dry-run figures" className="space-y-2 text-sm">
      {mc && mc.completion_rate !== undefined && (
        <p className="font-semibold">
          The job completes in {runShare(mc.completion_rate)} of runs{' '}
          <span className="font-normal text-slate-600">
            ({mc.completed_runs} of {mc.runs})
          </span>
        </p>
      )}
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-3">
        {[...rows, ...(mc ? monteCarloRows(mc) : [])].map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="font-medium tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {run.previous && <p className="text-xs text-slate-500">{comparison(run.previous)}</p>}
    </section>
  );
}
