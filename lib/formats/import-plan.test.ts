import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Job, TaskData, readEstimate } from '@/lib/plan';
import { WFCOMMONS_TRACES, wfcommonsDir } from '@/scripts/wfcommons-traces';
import { FormatError } from './format';
import { importPlan } from './import-plan';
import { errorThrownBy } from './test-support';
import { wfFormat } from './wfformat-format';

const importError = (text: string, format?: Parameters<typeof importPlan>[1]) => errorThrownBy(FormatError, () => importPlan(text, format));

const edgeCount = (plan: TaskData) => plan.planned_tasks.reduce((n, t) => n + t.dependencies.length, 0);

describe('importPlan', () => {
  it.each([
    ['montage', WFCOMMONS_TRACES.montage, 2122, 6114],
    ['epigenomics', WFCOMMONS_TRACES.epigenomics, 1695, 2108],
  ])('imports the %s trace with every task and dependency', (_name, file, tasks, edges) => {
    const imported = importPlan(readFileSync(path.join(wfcommonsDir(), file), 'utf8'));
    expect(imported.format.id).toBe('wfformat');
    expect(imported.document.plan.planned_tasks).toHaveLength(tasks);
    expect(edgeCount(imported.document.plan)).toBe(edges);
  });

  it('refuses a cyclic plan, a dangling dependency and duplicate ids, naming them', () => {
    const cyclic = JSON.stringify({
      planned_tasks: [
        { task_id: 'a', execution_type: 'tool', dependencies: ['b'] },
        { task_id: 'b', execution_type: 'tool', dependencies: ['a'] },
      ],
    });
    expect(importError(cyclic).message).toMatch(/^taskdata: Cycle: (a → b → a|b → a → b)/);
    const dangling = JSON.stringify({ planned_tasks: [{ task_id: 'a', execution_type: 'tool', dependencies: ['ghost'] }] });
    expect(importError(dangling).message).toBe('taskdata: Task "a" depends on "ghost", which is not in the plan');
    const twice = JSON.stringify({ planned_tasks: [{ task_id: 'a' }, { task_id: 'a' }] });
    expect(importError(twice).message).toContain('Task id "a" is used by more than one task');
  });

  it('says which formats it tried when nothing matches, and refuses empty files', () => {
    expect(importError('hello world').message).toMatch(/^unknown: this is not a plan in any supported format \(tried cortex-xml, wfformat, /);
    expect(importError('   ').message).toBe('unknown: the file is empty');
    expect(importError('{"steps": 1}', 'taskdata').format).toBe('taskdata');
  });

  it('imports an empty TaskData as an empty plan, as POST /api/plans creates one', () => {
    const imported = importPlan(JSON.stringify({ task_id: 'empty', planned_tasks: [] }), 'taskdata');
    expect(imported.document.plan.planned_tasks).toEqual([]);
  });
});

describe('WfFormat round trip', () => {
  it('keeps tasks, dependencies and runtimes through serialize and parse', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 25 }), fc.infiniteStream(fc.integer({ min: 0, max: 1000 })), (n, rand) => {
        const it = rand[Symbol.iterator]();
        const tasks = Array.from({ length: n }, (_, i) => ({
          task_id: `t${i}`,
          description: `job_${i}`,
          execution_type: 'tool',
          dependencies: Array.from({ length: i }, (_, j) => `t${j}`).filter(() => it.next().value % 3 === 0),
          estimate_data: { latency_ms: it.next().value * 10 },
        }));
        const plan = TaskData.parse({ task_id: 'wf', planned_tasks: tasks });
        const back = TaskData.parse(wfFormat.parse(wfFormat.serialize({ plan, job: Job.parse({}) }).text).plan);
        expect(back.planned_tasks.map((t) => [t.task_id, t.description, [...t.dependencies].sort(), readEstimate(t.estimate_data).latency_ms])).toEqual(
          plan.planned_tasks.map((t) => [t.task_id, t.description, [...t.dependencies].sort(), readEstimate(t.estimate_data).latency_ms]),
        );
      }),
      { numRuns: 200 },
    );
  });
});
