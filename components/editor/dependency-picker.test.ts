import { describe, expect, it } from 'vitest';
import type { PlannerTask } from '@/lib/plan';
import { LISTED_MATCHES, LISTED_WHOLE, listedCandidates } from './dependency-picker';

const task = (i: number) => ({ task_id: `task-${i}`, dependencies: [] }) as unknown as PlannerTask;
const plan = (n: number) => Array.from({ length: n }, (_, i) => task(i));
const labelled = (tasks: PlannerTask[]) => new Map(tasks.map((t, i) => [t.task_id, i % 2 ? `Fetch batch ${i}` : `Review batch ${i}`]));

describe('the tasks the dependency picker lists', () => {
  it('lists every candidate of a small plan, whatever was typed', () => {
    const tasks = plan(LISTED_WHOLE);
    expect(listedCandidates(tasks, labelled(tasks), 'nothing like it')).toEqual({ listed: tasks, more: 0 });
  });

  it('lists the first matches of a big plan and says how many more there are', () => {
    const tasks = plan(10_000);
    const labels = labelled(tasks);
    const all = listedCandidates(tasks, labels, '');
    expect(all.listed).toHaveLength(LISTED_MATCHES);
    expect(all.more).toBe(10_000 - LISTED_MATCHES);

    // Fetch batch 99, 991, 993, …, 9901, 9903, …: by label, case and surrounding spaces aside, in plan order.
    const fetches = listedCandidates(tasks, labels, '  FETCH batch 99');
    const expected = tasks.filter((t) => labels.get(t.task_id)!.startsWith('Fetch batch 99'));
    expect(expected.length).toBeLessThan(LISTED_MATCHES);
    expect(fetches).toEqual({ listed: expected, more: 0 });

    // By id too.
    expect(listedCandidates(tasks, labels, 'task-4242').listed.map((t) => t.task_id)).toEqual(['task-4242']);
    expect(listedCandidates(tasks, labels, 'no such task')).toEqual({ listed: [], more: 0 });
  });
});
