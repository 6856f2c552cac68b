import { describe, expect, it } from 'vitest';
import type { PlannerTask } from '@/lib/plan';
import { LISTED_MATCHES, LISTED_WHOLE, listedCandidates } from './dependency-picker';

const task = (i: number) => ({ task_id: `task-${i}`, description: i % 2 ? `Fetch batch ${i}` : `Review batch ${i}`, dependencies: [] }) as unknown as PlannerTask;
const plan = (n: number) => Array.from({ length: n }, (_, i) => task(i));

describe('the tasks the dependency picker lists', () => {
  it('lists every candidate of a small plan, whatever was typed', () => {
    const tasks = plan(LISTED_WHOLE);
    expect(listedCandidates(tasks, 'nothing like it')).toEqual({ listed: tasks, more: 0 });
  });

  it('lists the first matches of a big plan and says how many more there are', () => {
    const tasks = plan(10_000);
    const all = listedCandidates(tasks, '');
    expect(all.listed).toHaveLength(LISTED_MATCHES);
    expect(all.more).toBe(10_000 - LISTED_MATCHES);

    // Fetch batch 99, 991, 993, …, 9901, 9903, …: by description, case and surrounding spaces aside, in plan order.
    const fetches = listedCandidates(tasks, '  FETCH batch 99');
    const expected = tasks.filter((t) => t.description!.startsWith('Fetch batch 99'));
    expect(expected.length).toBeLessThan(LISTED_MATCHES);
    expect(fetches).toEqual({ listed: expected, more: 0 });

    // By id too.
    expect(listedCandidates(tasks, 'task-4242').listed.map((t) => t.task_id)).toEqual(['task-4242']);
    expect(listedCandidates(tasks, 'no such task')).toEqual({ listed: [], more: 0 });
  });
});
