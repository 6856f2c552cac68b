import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlanDocument } from '@/lib/plan';
import { WFCOMMONS_TRACES, wfcommonsDir } from '@/scripts/wfcommons-traces';
import { importPlan } from './import-plan';
import { wfCommonsProblems } from './wfcommons-validator-test-support';
import { wfFormat } from './wfformat-format';

const EXPORTED_AT = '2026-03-01T09:30:00.000Z';
const now = () => new Date(EXPORTED_AT);
const trace = () => readFileSync(path.join(wfcommonsDir(), WFCOMMONS_TRACES.epigenomics), 'utf8');

describe('wfformat: export', () => {
  it('writes a real trace back under its own name, its runtimes as the execution record, and a second round trip writes the same file', () => {
    const first = importPlan(trace(), 'wfformat').document;
    const name = (JSON.parse(trace()) as { name: string }).name;
    expect(first.plan.task_id).toBe(name);

    const out = wfFormat.serialize(first, { now });
    const written = JSON.parse(out.text) as { name: string; workflow: { execution: { tasks: Array<{ id: string; runtimeInSeconds: number }>; executedAt: string } } };
    expect(written.name).toBe(name);
    const original = JSON.parse(trace()) as { workflow: { execution: { tasks: Array<{ id: string; runtimeInSeconds: number }> } } };
    expect(new Map(written.workflow.execution.tasks.map((t) => [t.id, t.runtimeInSeconds]))).toEqual(new Map(original.workflow.execution.tasks.map((t) => [t.id, t.runtimeInSeconds])));
    expect(written.workflow.execution.executedAt).toBe(EXPORTED_AT);
    expect(wfCommonsProblems(written)).toEqual([]);
    expect(out.text).not.toMatch(/wfcommons-/);
    expect(out.dropped).toEqual([]);

    const second = importPlan(out.text, 'wfformat').document;
    expect(second.plan.task_id).toBe(name);
    expect(second.plan.planned_tasks.map((t) => [t.task_id, t.tool_id, t.dependencies, t.estimate_data])).toEqual(
      first.plan.planned_tasks.map((t) => [t.task_id, t.tool_id, t.dependencies, t.estimate_data]),
    );
    expect(wfFormat.serialize(second, { now }).text).toBe(out.text);
  });

  it('passes WfCommons’ schema and its validator’s checks for any plan, and reads back the estimates it was given', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }).chain((n) =>
          fc.record({
            deps: fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: n, maxLength: n }),
            estimates: fc.array(fc.oneof(fc.constant(null), fc.record({ latency_ms: fc.integer({ min: 0, max: 100_000 }) }), fc.record({ cost_usd: fc.double({ min: 0, max: 5, noNaN: true }) })), { minLength: n, maxLength: n }),
          }),
        ),
        ({ deps, estimates }) => {
          const tasks = deps.map((d, i) => ({
            task_id: `t${i}`,
            execution_type: 'tool',
            tool_id: 'run',
            dependencies: [...new Set(d.filter((j) => j < i).map((j) => `t${j}`))],
            estimate_data: estimates[i],
          }));
          const doc = PlanDocument.parse({ plan: { task_id: 'wf', planned_tasks: tasks } });
          const written = JSON.parse(wfFormat.serialize(doc, { now }).text);
          expect(wfCommonsProblems(written)).toEqual([]);
          const back = importPlan(JSON.stringify(written), 'wfformat').document.plan.planned_tasks;
          expect(back.map((t) => t.estimate_data)).toEqual(tasks.map((t) => t.estimate_data));
          // The makespan is the critical path of the runtimes.
          const finish: number[] = [];
          tasks.forEach((t, i) => (finish[i] = Math.max(0, ...t.dependencies.map((d) => finish[Number(d.slice(1))])) + ((estimates[i] as { latency_ms?: number } | null)?.latency_ms ?? 0)));
          expect(written.workflow.execution.makespanInSeconds).toBeCloseTo(Math.max(...finish) / 1000, 9);
        },
      ),
      { numRuns: 100 },
    );
  });
});
