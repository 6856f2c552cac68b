import { expect, test } from '@playwright/test';

// Two production instances share one PostgreSQL database. Forty saves of the same base
// revision, alternating between them, race; exactly one may win.

const A = 'http://127.0.0.1:3101';
const B = 'http://127.0.0.1:3102';
const plan = { planned_tasks: [{ task_id: 'only', execution_type: 'tool' }] };

test('40 concurrent saves of one base over two instances: one success, 39 conflicts, no gaps', async ({ request }) => {
  const created = await (await request.post(`${A}/api/plans`, { data: { title: 'Race', plan } })).json();
  expect((await (await request.get(`${B}/api/plans/${created.id}`)).json()).revision).toBe(1);

  const statuses = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const response = await request.put(`${i % 2 ? B : A}/api/plans/${created.id}`, {
        data: { base_revision: 1, plan: { ...plan, status: `attempt-${i}` }, message: `attempt ${i}` },
      });
      return response.status();
    }),
  );
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 409)).toHaveLength(39);

  for (const base of [A, B]) {
    const { revisions } = await (await request.get(`${base}/api/plans/${created.id}/revisions`)).json();
    expect(revisions.map((r: { revision: number }) => r.revision)).toEqual([1, 2]);
  }
});
