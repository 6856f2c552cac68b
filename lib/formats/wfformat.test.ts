import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { wfcommonsDir } from '@/scripts/wfcommons-traces';
import { errorThrownBy } from './test-support';
import { parseWfFormat, WfFormatError } from './wfformat';


// Independent of the reader under test: only what the reconciliation check needs.
const RawTrace = z.object({
  workflow: z.object({
    specification: z.object({
      tasks: z.array(z.object({ id: z.string(), parents: z.array(z.string()), children: z.array(z.string()) })),
    }),
  }),
});

function modern(tasks: unknown[], execution: unknown[] = []) {
  return JSON.stringify({
    name: 'tiny',
    schemaVersion: '1.5',
    workflow: { specification: { tasks, files: [] }, execution: { makespanInSeconds: 1, tasks: execution } },
  });
}

const errorOf = (fn: () => unknown) => errorThrownBy(WfFormatError, fn);

describe('parseWfFormat on the WfCommons traces', () => {
  const cases = [
    { file: 'montage-chameleon-dss-15d-001.json', name: 'montage-0', tasks: 2122, edges: 6114 },
    { file: 'epigenomics-chameleon-ilmn-6seq-50k-001.json', name: 'genome-dax-0', tasks: 1695, edges: 2108 },
  ];

  for (const c of cases) {
    it(`reads ${c.file} with the recorded task and edge counts`, () => {
      const text = readFileSync(path.join(wfcommonsDir(), c.file), 'utf8');
      const wf = parseWfFormat(text);
      expect(wf.name).toBe(c.name);
      expect(wf.tasks).toHaveLength(c.tasks);
      const edges = wf.tasks.reduce((sum, t) => sum + t.dependencies.length, 0);
      expect(edges).toBe(c.edges);

      // Reconcile: the edges implied by `children` are exactly those from `parents`.
      const raw = RawTrace.parse(JSON.parse(text));
      const fromParents = new Set<string>();
      const fromChildren = new Set<string>();
      for (const t of raw.workflow.specification.tasks) {
        for (const p of t.parents) fromParents.add(`${p}>${t.id}`);
        for (const ch of t.children) fromChildren.add(`${t.id}>${ch}`);
      }
      expect(fromChildren).toEqual(fromParents);
      const parsed = new Set(wf.tasks.flatMap((t) => t.dependencies.map((d) => `${d}>${t.task_id}`)));
      expect(parsed).toEqual(fromParents);

      expect(wf.tasks.every((t) => t.runtime_ms !== null && t.runtime_ms >= 0)).toBe(true);
    });
  }

  it('converts runtimes to whole milliseconds', () => {
    const wf = parseWfFormat(readFileSync(path.join(wfcommonsDir(), 'epigenomics-chameleon-ilmn-6seq-50k-001.json'), 'utf8'));
    const first = wf.tasks.find((t) => t.task_id === 'chr21_chr21_ID0000001');
    expect(first?.runtime_ms).toBe(39016);
  });
});

describe('parseWfFormat', () => {
  it('reads schema 1.5, taking the union of parents and children', () => {
    const wf = parseWfFormat(
      modern(
        [
          { id: 'a', name: 'Stage A', parents: [], children: ['b', 'c'] },
          { id: 'b', parents: ['a'], children: [] },
          // c lists no parents; a's children still make it depend on a.
          { id: 'c', parents: [], children: [] },
        ],
        [
          { id: 'a', runtimeInSeconds: 1.5 },
          { id: 'b', runtimeInSeconds: 0 },
        ],
      ),
    );
    expect(wf).toEqual({
      name: 'tiny',
      tasks: [
        { task_id: 'a', description: 'Stage A', dependencies: [], runtime_ms: 1500 },
        { task_id: 'b', description: 'b', dependencies: ['a'], runtime_ms: 0 },
        { task_id: 'c', description: 'c', dependencies: ['a'], runtime_ms: null },
      ],
    });
  });

  it('reads legacy layouts that reference tasks by name', () => {
    const jobs = JSON.stringify({
      name: 'old',
      schemaVersion: '1.0',
      workflow: {
        jobs: [
          { name: 'split', runtime: 2 },
          { name: 'merge', id: 'ID2', parents: ['split'], runtime: 3.25 },
          { name: 'report', parents: ['ID2'] },
        ],
      },
    });
    expect(parseWfFormat(jobs).tasks).toEqual([
      { task_id: 'split', description: 'split', dependencies: [], runtime_ms: 2000 },
      { task_id: 'merge', description: 'merge', dependencies: ['split'], runtime_ms: 3250 },
      { task_id: 'report', description: 'report', dependencies: ['merge'], runtime_ms: null },
    ]);
    const tasks = JSON.stringify({
      schemaVersion: '1.4',
      workflow: { tasks: [{ name: 'x', runtimeInSeconds: 1 }, { name: 'y', parents: ['x'] }] },
    });
    const wf = parseWfFormat(tasks);
    expect(wf.name).toBe('workflow');
    expect(wf.tasks.map((t) => t.dependencies)).toEqual([[], ['x']]);
  });

  it('rejects text that is not JSON', () => {
    expect(() => parseWfFormat('{ nope')).toThrow(/^parseWfFormat: not valid JSON/);
  });

  it('names the path of a schema problem', () => {
    const err = errorOf(() => parseWfFormat(modern([{ id: 'a', parents: [42] }])));
    expect(err.message).toMatch(/^parseWfFormat: /);
    expect(err.issues[0]?.path).toBe('workflow.specification.tasks[0].parents[0]');
    const neg = errorOf(() => parseWfFormat(modern([{ id: 'a' }], [{ id: 'a', runtimeInSeconds: -1 }])));
    expect(neg.issues[0]?.path).toBe('workflow.execution.tasks[0].runtimeInSeconds');
  });

  it('names the path of an unknown reference, a duplicate id and an unknown layout', () => {
    const unknown = errorOf(() =>
      parseWfFormat(modern([{ id: 'a', parents: [] }, { id: 'b', parents: ['a'], children: ['zz'] }])),
    );
    expect(unknown.issues).toEqual([{ path: 'workflow.specification.tasks[1].children[0]', message: 'unknown task "zz"' }]);
    const dup = errorOf(() => parseWfFormat(modern([{ id: 'a' }, { id: 'a' }])));
    expect(dup.issues).toEqual([{ path: 'workflow.specification.tasks[1]', message: 'duplicate task id "a"' }]);
    const exec = errorOf(() => parseWfFormat(modern([{ id: 'a' }], [{ id: 'b', runtimeInSeconds: 1 }])));
    expect(exec.issues[0]?.path).toBe('workflow.execution.tasks[0].id');
    const layout = errorOf(() => parseWfFormat(JSON.stringify({ workflow: { steps: [] } })));
    expect(layout.issues[0]?.path).toBe('workflow');
    const root = errorOf(() => parseWfFormat('[]'));
    expect(root.message).toMatch(/^parseWfFormat: invalid WfFormat document: /);
  });
});
