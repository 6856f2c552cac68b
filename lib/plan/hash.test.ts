import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlanDocument, contentHash, setPositions, taskHash, updateTask } from '@/lib/plan';

const doc = PlanDocument.parse({
  plan: {
    task_id: 'job',
    creation_time: '2026-01-01T00:00:00.000Z',
    update_time: '2026-01-01T00:00:00.000Z',
    planned_tasks: [
      { task_id: 'a', execution_type: 'tool', creation_time: '2026-01-01T00:00:00.000Z', last_update_time: '2026-01-01T00:00:00.000Z' },
      { task_id: 'b', execution_type: 'llm', dependencies: ['a'], creation_time: '2026-01-01T00:00:00.000Z', last_update_time: '2026-01-01T00:00:00.000Z' },
    ],
  },
  job: { job_goal: { objective: 'Summarise' } },
});

function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, seed));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    const rotated = entries.slice(seed % Math.max(entries.length, 1)).concat(entries.slice(0, seed % Math.max(entries.length, 1)));
    return Object.fromEntries(rotated.reverse().map(([k, v]) => [k, shuffleKeys(v, seed + 1)]));
  }
  return value;
}

describe('contentHash', () => {
  it('is a sha256 and stable under key order', () => {
    expect(contentHash(doc)).toMatch(/^sha256:[0-9a-f]{64}$/);
    fc.assert(
      fc.property(fc.nat(50), (seed) => contentHash(shuffleKeys(doc, seed) as PlanDocument) === contentHash(doc)),
      { numRuns: 200 },
    );
  });

  it('changes with any semantic edit and ignores view data', () => {
    const base = contentHash(doc);
    expect(contentHash(updateTask(doc, 'b', { description: 'Summarise it' }))).not.toBe(base);
    expect(contentHash(updateTask(doc, 'b', { mark_replan: true }))).not.toBe(base);
    expect(contentHash({ ...doc, job: { ...doc.job, task_description: 'more' } })).not.toBe(base);
    expect(contentHash({ ...doc, subgraphs: [{ subgraph_id: 's', task_ids: ['a', 'b'], depends_on: [] }] })).not.toBe(base);
    expect(contentHash(setPositions(doc, { a: { x: 10, y: 20 } }))).toBe(base);
  });

  it('survives a JSON round trip, as a stored revision does', () => {
    expect(contentHash(PlanDocument.parse(JSON.parse(JSON.stringify(doc))))).toBe(contentHash(doc));
  });
});

describe('hash versions', () => {
  it('version 2 is the hash over each task\'s own hash, and version 1 stays the whole-document hash', () => {
    expect(contentHash(doc)).toBe(contentHash(doc, 2));
    expect(contentHash(doc, 1)).not.toBe(contentHash(doc, 2));
    expect(contentHash(doc, 2)).toBe(contentHash({ ...doc, plan: { ...doc.plan } }, 2));
    // The order of the tasks is content: swapping two changes the hash.
    const swapped = { ...doc, plan: { ...doc.plan, planned_tasks: [...doc.plan.planned_tasks].reverse() } };
    expect(contentHash(swapped)).not.toBe(contentHash(doc));
  });

  it('a task hash is the hash of that task alone', () => {
    const [a, b] = doc.plan.planned_tasks;
    expect(taskHash(a)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(taskHash(a)).not.toBe(taskHash(b));
    expect(taskHash(updateTask(doc, 'b', { description: 'x' }).plan.planned_tasks[0])).toBe(taskHash(a));
  });
});
