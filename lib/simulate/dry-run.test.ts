import { describe, expect, it } from 'vitest';
import { TaskData, type TaskDataInput } from '@/lib/plan';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import { DRY_RUN_DATA_LIMITS, DryRunError, DryRunLimitError, DryRunOptions, DryRunOptionsError, MAX_FAILURE_PROBABILITY_OVERRIDES, dryRun } from './dry-run';
import { MAX_CONVERTORS } from './data-flow';
import { MAX_MONTE_CARLO_TASK_RUNS } from './monte-carlo';
import { runConvertor } from './sandbox/run-convertor';

const registry = Registry.parse(DEMO_REGISTRY);

const chain: TaskDataInput = {
  planned_tasks: [
    { task_id: 'step-0', description: 'Contaminated shipments', execution_type: 'tool', tool_id: 'shipments_list', arguments: { has_contaminants: true, limit: 100 } },
    { task_id: 'step-1', description: 'Their contaminants', execution_type: 'tool', tool_id: 'contaminants_list', arguments: { shipment_ids: '${step[0].data.*.id}' }, dependencies: ['step-0'] },
    { task_id: 'summary', description: 'Summarise', execution_type: 'llm', function_id: 'gpt-4o-mini', dependencies: ['step-1'], estimate_data: { latency_ms: 2000, tokens: 2000 } },
  ],
};

const run = (plan: TaskDataInput, options: Parameters<typeof dryRun>[2]) => dryRun(TaskData.parse(plan), registry, options);

describe('dry run', () => {
  it('times a chain from registry defaults and estimates, resolves templates against mock outputs, and costs it', async () => {
    const result = await run(chain, { workers: 2 });
    expect(result.tasks.map((t) => [t.task_id, t.start_ms, t.end_ms, t.status])).toEqual([
      ['step-0', 0, 1500, 'ran'],
      ['step-1', 1500, 2700, 'ran'],
      ['summary', 2700, 4700, 'ran'],
    ]);
    expect([result.makespan_ms, result.lower_bound_ms, result.critical_path]).toEqual([4700, 4700, ['step-0', 'step-1', 'summary']]);
    expect(result.tasks[1].resolved_input).toEqual({ shipment_ids: ['shipments_list-data-id-1', 'shipments_list-data-id-2', 'shipments_list-data-id-3'] });
    expect(result.total_cost_usd).toBeCloseTo(0.0003);
    expect(result.findings).toEqual([]);
    expect(result.assumptions).toEqual([
      '2 tasks use their tool\'s default latency from the registry: "step-0", "step-1"',
      '2 tasks use their tool\'s default cost from the registry: "step-0", "step-1"',
      '1 LLM task costed from the model\'s price per 1k tokens (1,000 tokens where no estimate is given): "summary"',
    ]);
  });

  it('reports a reference that resolves to nothing and one that resolves to the wrong type', async () => {
    const plan: TaskDataInput = {
      planned_tasks: [
        { task_id: 'step-0', execution_type: 'tool', tool_id: 'shipments_list' },
        { task_id: 'step-1', execution_type: 'tool', tool_id: 'contaminants_list', arguments: { shipment_ids: '${step[0].data.*.weight}' }, dependencies: ['step-0'] },
        { task_id: 'step-2', execution_type: 'tool', tool_id: 'facilities_list', arguments: { location: '${step[0].data.*.id}' }, dependencies: ['step-0'] },
      ],
    };
    const { findings } = await run(plan, { workers: 4 });
    expect(findings.map((f) => [f.task_id, f.code])).toEqual([
      ['step-1', 'unresolved_reference'],
      ['step-2', 'type_mismatch'],
    ]);
    expect(findings[0].message).toBe('${step[0].data.*.weight}: the output of "step-0" has nothing at .data.*.weight');
  });

  it("resolves a task's Stage 2 input_data, when it has one, instead of its arguments", async () => {
    const plan: TaskDataInput = {
      planned_tasks: [
        chain.planned_tasks![0],
        {
          task_id: 'step-1',
          execution_type: 'tool',
          tool_id: 'contaminants_list',
          dependencies: ['step-0'],
          arguments: { shipment_ids: 'ignored' },
          parameters: { stage2: { uid: 'contaminants_list', input_data: { shipment_ids: '${step[0].data[0].id}' } } },
        },
      ],
    };
    const result = await run(plan, { workers: 1 });
    expect(result.tasks[1].resolved_input).toEqual({ shipment_ids: 'shipments_list-data-id-1' });
  });

  it('skips everything downstream of a failed task and shows the makespan without them', async () => {
    const result = await run(chain, { workers: 1, fail_task_ids: ['step-1'] });
    expect([result.failed_task_ids, result.skipped_task_ids, result.makespan_ms]).toEqual([['step-1'], ['summary'], 2700]);
    expect(result.tasks[2].worker).toBeNull();
    // The bound counts the tasks that ran (2.7 s), not the skipped summary (4.7 s with it).
    expect([result.lower_bound_ms, result.plan_lower_bound_ms]).toEqual([2700, 4700]);
  });

  it('runs Monte Carlo failures reproducibly for a seed', async () => {
    const options = { workers: 2, failure_probability: 0.3, runs: 200, seed: 7 };
    const first = await run(chain, options);
    expect(first.monte_carlo).toEqual((await run(chain, options)).monte_carlo);
    const mc = first.monte_carlo!;
    expect(mc.failed_runs).toBeGreaterThan(0);
    expect(mc.completed_runs! + mc.failed_runs).toBe(200);
    expect(mc.completion_rate).toBe(mc.completed_runs! / 200);
    // A completed run is the full chain: failed runs, which stop early, are not in the percentiles.
    expect(mc.makespan_ms).toEqual({ p50: 4700, p95: 4700, min: 4700, max: 4700 });
    expect(mc.time_to_first_failure_ms!.p95).toBeLessThanOrEqual(4700);
  });

  it("takes a task's own failure probability, and refuses one for a task not in the plan (an options error)", async () => {
    const certain = await run(chain, { workers: 1, runs: 10, failure_probability_overrides: { summary: 1 } });
    expect(certain.monte_carlo).toMatchObject({ completed_runs: 0, completion_rate: 0, makespan_ms: null, cost_usd: null, failure_probability_overrides: 1 });
    expect(certain.monte_carlo!.time_to_first_failure_ms).toEqual({ p50: 4700, p95: 4700 });
    const refused = run(chain, { workers: 1, failure_probability_overrides: { summary: 0.1, ghost: 0.2 } });
    await expect(refused).rejects.toThrow(DryRunOptionsError);
    await expect(refused).rejects.toThrow('failure_probability_overrides: no task "ghost" in the plan');
  });

  it('accepts failure probabilities as fine as 0.0001 and bounds the per-task ones', () => {
    for (const p of [0.0001, 0.001, 0.00015]) {
      expect(DryRunOptions.safeParse({ workers: 1, failure_probability: p, failure_probability_overrides: { a: p } }).success).toBe(true);
    }
    expect(DryRunOptions.safeParse({ workers: 1, failure_probability_overrides: { a: 1.5 } }).success).toBe(false);
    const tooMany = Object.fromEntries(Array.from({ length: MAX_FAILURE_PROBABILITY_OVERRIDES + 1 }, (_, i) => [`t${i}`, 0.1]));
    const parsed = DryRunOptions.safeParse({ workers: 1, failure_probability_overrides: tooMany });
    expect(parsed.error?.issues[0].message).toBe('At most 20,000 per-task failure probabilities');
  });

  it('says the total cost is unknown, with a finding and the tasks named, when tasks have no cost estimate', async () => {
    const plan: TaskDataInput = {
      planned_tasks: Array.from({ length: 8 }, (_, i) => ({ task_id: `t${i}`, execution_type: 'agent', agent_id: 'analyst', estimate_data: { latency_ms: 100 } })),
    };
    const result = await run(plan, { workers: 2, runs: 3 });
    expect(result.total_cost_usd).toBeNull();
    expect(result.monte_carlo!.cost_usd).toBeNull();
    expect(result.findings).toEqual([
      { task_id: 't0', code: 'cost_unknown', message: 'Total cost unknown: 8 of the 8 tasks have no cost estimate ("t0", "t1", "t2", "t3", "t4" and 3 more)' },
    ]);
    expect(result.assumptions).toEqual([
      '8 tasks without a cost estimate (no cost_usd of their own, no registry default, no model price), so any total cost that includes them is unknown: "t0", "t1", "t2", "t3", "t4" and 3 more',
    ]);
    // Only the tasks that run count: with the costless ones skipped, the total is known.
    const mixed: TaskDataInput = {
      planned_tasks: [
        { task_id: 'a', execution_type: 'agent', estimate_data: { latency_ms: 1, cost_usd: 0.5 } },
        { task_id: 'b', execution_type: 'agent', dependencies: ['a'], estimate_data: { latency_ms: 1 } },
      ],
    };
    expect((await run(mixed, { workers: 1 })).total_cost_usd).toBeNull();
    expect((await run(mixed, { workers: 1, fail_task_ids: ['a'] })).total_cost_usd).toBe(0.5);
  });

  it('makes an estimate too large to add up a finding and does not use it; every figure stays a number', async () => {
    const plan: TaskDataInput = {
      planned_tasks: [
        { task_id: 'huge', execution_type: 'agent', estimate_data: { latency_ms: 1e308, cost_usd: 1e308 } },
        { task_id: 'next', execution_type: 'agent', dependencies: ['huge'], estimate_data: { latency_ms: 1e308, cost_usd: 1 } },
      ],
    };
    const result = await run(plan, { workers: 2, runs: 5 });
    expect(result.findings.map((f) => [f.task_id, f.code])).toEqual([
      ['huge', 'estimate_out_of_range'],
      ['huge', 'estimate_out_of_range'],
      ['next', 'estimate_out_of_range'],
      ['huge', 'cost_unknown'],
    ]);
    expect(result.findings[0].message).toBe('The latency estimate (latency_ms) of 1e+308 ms is beyond what a dry run adds up (at most 1e+12 ms); it is not used');
    expect(result.total_cost_usd).toBeNull();
    const figures = [result.makespan_ms, result.lower_bound_ms, result.total_work_ms, result.utilisation, ...result.worker_utilisation];
    expect(figures.every(Number.isFinite)).toBe(true);
    expect(JSON.parse(JSON.stringify(result)).makespan_ms).toBe(result.makespan_ms);
  });

  it('runs convertor code in the sandbox, reporting a loop, an allocation bomb and host access as findings', async () => {
    const convertors: Record<string, string> = {
      good: 'return { shipment_ids: input.ids.map((id) => id.toUpperCase()) };',
      loop: 'while (true) {}',
      bomb: 'const a = []; while (true) a.push(new Array(1e5).fill(1));',
      host: "return require('fs').readdirSync('/');",
    };
    const plan: TaskDataInput = {
      planned_tasks: Object.entries(convertors).map(([id, code]) => ({ task_id: id, execution_type: 'tool', tool_id: 'contaminants_list', arguments: { ids: ['s1'] }, convertor_code: code })),
    };
    const result = await dryRun(TaskData.parse(plan), registry, { workers: 4 }, (code, input) => runConvertor(code, input));
    expect(result.tasks[0].resolved_input).toEqual({ shipment_ids: ['S1'] });
    const codes = Object.fromEntries(result.findings.map((f) => [f.task_id, f.code]));
    // The bomb hits the memory limit in about 100 ms; on a busy machine the 200 ms time limit can come first. Stopped either way.
    expect(codes).toEqual({ loop: 'convertor_timeout', bomb: expect.stringMatching(/^convertor_(memory|timeout)$/), host: 'convertor_error' });
    expect(result.findings.find((f) => f.task_id === 'host')!.message).toMatch(/'require' is not defined/);
  }, 20_000);

  it('refuses a cyclic plan and a task to fail that is not in the plan, with the reason', async () => {
    const cyclic: TaskDataInput = { planned_tasks: [{ task_id: 'a', execution_type: 'tool', dependencies: ['b'] }, { task_id: 'b', execution_type: 'tool', dependencies: ['a'] }] };
    await expect(run(cyclic, { workers: 1 })).rejects.toThrow(DryRunError);
    await expect(run(chain, { workers: 1, fail_task_ids: ['ghost'] })).rejects.toThrow(DryRunOptionsError);
    await expect(run(chain, { workers: 1, fail_task_ids: ['ghost'] })).rejects.toThrow('No task "ghost" in the plan to fail');
  });

  it('keeps no big convertor output: 8 MB outputs are findings, and what a dry run keeps stays small', async () => {
    const plan: TaskDataInput = {
      planned_tasks: Array.from({ length: 4 }, (_, i) => ({
        task_id: `big-${i}`,
        execution_type: 'tool',
        tool_id: 'contaminants_list',
        arguments: { ids: ['s1'] },
        convertor_code: "return { blob: 'x'.repeat(8 * 1024 * 1024) }",
      })),
    };
    // What is checked is the output's size, not the time: on a loaded machine building 8 MB in
    // the sandbox outran the default 200 ms (a convertor_timeout instead, in one CI run).
    const result = await dryRun(TaskData.parse(plan), registry, { workers: 4 }, (code, input) => runConvertor(code, input, { timeMs: 20_000 }));
    expect(result.findings.map((f) => f.code)).toEqual(['convertor_output', 'convertor_output', 'convertor_output', 'convertor_output']);
    expect(result.findings[0].message).toMatch(/^convertor_code: the convertor output is 8 MB of JSON, the limit is 1 MB/);
    expect(result.tasks[0].resolved_input).toEqual({ ids: ['s1'] });
    expect(JSON.stringify(result).length).toBeLessThan(20_000);
  }, 30_000);

  it('stops keeping convertor outputs once a dry run has kept 16 MB of them', async () => {
    const mb = 1024 * 1024;
    // A stand-in runner: 20 outputs that each report 0.9 MB (the sandbox caps each at 1 MB).
    const runner = async () => ({ ok: true as const, output: { small: true }, ms: 1, bytes: 0.9 * mb });
    const plan: TaskDataInput = {
      planned_tasks: Array.from({ length: 20 }, (_, i) => ({ task_id: `c-${i}`, execution_type: 'tool', tool_id: 'contaminants_list', arguments: { ids: ['s1'] }, convertor_code: 'return input' })),
    };
    expect(20).toBeLessThan(MAX_CONVERTORS);
    const result = await dryRun(TaskData.parse(plan), registry, { workers: 4 }, runner);
    const refused = result.findings.filter((f) => f.code === 'convertor_output');
    expect(refused.map((f) => f.task_id)).toEqual(['c-17', 'c-18', 'c-19']);
    expect(refused[0].message).toMatch(/would reach 16\.2 MB, the limit is 16 MB per dry run; the output was not kept/);
    expect(result.tasks[16].resolved_input).toEqual({ small: true });
    expect(result.tasks[17].resolved_input).toEqual({ ids: ['s1'] });
  });

  it('keeps at most the data budget of resolved inputs and mock outputs, and says so', async () => {
    const n = 2_000;
    const wide = { ids: Array.from({ length: 200 }, (_, i) => `shipment-${i}`) }; // ~2.6 kB a task
    const plan: TaskDataInput = { planned_tasks: Array.from({ length: n }, (_, i) => ({ task_id: `t${i}`, execution_type: 'tool', tool_id: 'contaminants_list', arguments: wide })) };
    const result = await dryRun(TaskData.parse(plan), registry, { workers: 8 });
    const kept = JSON.stringify(result.tasks.map((t) => [t.resolved_input, t.mock_output])).length;
    expect(kept).toBeLessThan(DRY_RUN_DATA_LIMITS.maxTaskDataBytes + 200_000);
    expect(result.tasks[0].resolved_input).toEqual(wide);
    expect(result.tasks[n - 1].resolved_input).toBeNull();
    expect(result.tasks[n - 1].end_ms).toBeGreaterThan(0); // the schedule is complete
    expect(result.assumptions.some((a) => /resolved inputs and mock outputs are kept up to 2,048 kB per dry run; [\d,]+ more are not kept/.test(a))).toBe(true);
  });

  it('refuses a Monte Carlo over the task-run budget with a limit error naming it', async () => {
    const n = 2_001;
    const plan: TaskDataInput = { planned_tasks: Array.from({ length: n }, (_, i) => ({ task_id: `t${i}`, execution_type: 'tool' })) };
    const parsed = TaskData.parse(plan);
    const refused = dryRun(parsed, registry, { workers: 8, runs: 1_000, failure_probability: 0.01 });
    await expect(refused).rejects.toThrow(DryRunLimitError);
    await expect(refused).rejects.toThrow(
      `1,000 Monte Carlo runs of 2,001 tasks are 2,001,000 task-runs; the limit is ${MAX_MONTE_CARLO_TASK_RUNS.toLocaleString('en')} task-runs per dry run (at most 999 runs of this plan)`,
    );
    const allowed = await dryRun(parsed, registry, { workers: 8, runs: 999, failure_probability: 0.01 });
    expect(allowed.monte_carlo?.runs).toBe(999);
    // One plain run is never a Monte Carlo, whatever the size.
    expect((await dryRun(parsed, registry, { workers: 8 })).monte_carlo).toBeNull();
  }, 30_000);
});
