import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dagArb } from '@/lib/graph/test-arbitraries';
import { TaskData } from '@/lib/plan';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import { dryRun, type DryRunOptions } from './dry-run';

// The dry run as the API calls it, on random plans and settings: its figures are honest
// (the bound never exceeds the makespan; unknown costs are null) and a seed repeats it.

const registry = Registry.parse(DEMO_REGISTRY);
const KINDS = ['agent', 'tool', 'llm', 'dsl'] as const;

const caseArb = dagArb(15).chain((g) =>
  fc.record({
    plan: fc
      .array(
        fc.record({
          kind: fc.constantFrom(...KINDS),
          latency: fc.option(fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.double({ min: 0, max: 1e6, noNaN: true })), { nil: undefined }),
          cost: fc.option(fc.double({ min: 0, max: 5, noNaN: true }), { nil: undefined }),
        }),
        { minLength: g.n, maxLength: g.n },
      )
      .map((specs) =>
        TaskData.parse({
          planned_tasks: g.tasks.map((t, i) => ({
            task_id: t.task_id,
            dependencies: t.dependencies,
            execution_type: specs[i]!.kind,
            estimate_data: { ...(specs[i]!.latency === undefined ? {} : { latency_ms: specs[i]!.latency }), ...(specs[i]!.cost === undefined ? {} : { cost_usd: specs[i]!.cost }) },
          })),
        }),
      ),
    options: fc.record({
      workers: fc.integer({ min: 1, max: 6 }),
      limits: fc.record({ llm: fc.integer({ min: 1, max: 3 }), tool: fc.integer({ min: 1, max: 3 }) }, { requiredKeys: [] }),
      fail: fc.array(fc.nat(Math.max(0, g.n - 1)), { maxLength: g.n === 0 ? 0 : 4 }),
      failure_probability: fc.constantFrom(0, 0.0001, 0.001, 0.2),
      runs: fc.integer({ min: 1, max: 30 }),
      seed: fc.integer(),
    }),
  }),
);

describe('dryRun: properties', () => {
  it('keeps lower bound <= makespan, costs unknown as null, and gives the same result for the same seed', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ plan, options: o }) => {
        const options: DryRunOptions = {
          workers: o.workers,
          limits: o.limits,
          fail_task_ids: o.fail.map((i) => plan.planned_tasks[i]!.task_id),
          failure_probability: o.failure_probability,
          runs: o.runs,
          seed: o.seed,
        };
        const result = await dryRun(plan, registry, options);
        expect(result.lower_bound_ms).toBeLessThanOrEqual(result.makespan_ms);
        const ran = new Set(result.tasks.filter((t) => t.status !== 'skipped').map((t) => t.task_id));
        const costless = plan.planned_tasks.filter((t) => ran.has(t.task_id) && (t.estimate_data as { cost_usd?: number }).cost_usd === undefined);
        expect(result.total_cost_usd === null).toBe(costless.length > 0);
        expect(result.findings.some((f) => f.code === 'cost_unknown')).toBe(costless.length > 0);
        const mc = result.monte_carlo;
        if (mc) {
          expect(mc.completed_runs! + mc.failed_runs).toBe(mc.runs);
          if (mc.makespan_ms) expect(mc.makespan_ms.p50).toBeGreaterThanOrEqual(result.plan_lower_bound_ms! - 1e-6);
        }
        expect(await dryRun(plan, registry, options)).toEqual(result);
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
