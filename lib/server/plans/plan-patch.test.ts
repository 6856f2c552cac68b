import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contentHash, type TaskDataInput } from '@/lib/plan';
import { CreatePlanRequest, PatchPlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { AppError } from '../platform/errors';
import { createPlan, getPlan, patchPlan, savePlan } from './plan-service';

// PATCH saves what changed: the same revision rules as PUT (a stale base is a conflict, the
// content hash is the stored document's, a layout-only change keeps approvals), and a new
// revision stores only the tasks that changed.

const chain: TaskDataInput = {
  task_id: 'job-1',
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'http_get' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
    { task_id: 'report', description: 'Report', execution_type: 'agent', dependencies: ['summarise'] },
  ],
};

const patch = (body: object) => PatchPlanRequest.parse(body);

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe.each(testDatabases())('saving a change (PATCH) on $name', (database) => {
  const db = useTestDatabase(database);

  async function storedTaskRows(id: string): Promise<number> {
    const result = await db().execute(sql`select count(*)::int as n from plan_tasks where plan_id = ${id}`);
    return (result as unknown as { rows: Array<{ n: number }> }).rows[0].n;
  }

  async function storedPageRows(id: string): Promise<number> {
    const result = await db().execute(sql`select count(*)::int as n from plan_pages where plan_id = ${id}`);
    return (result as unknown as { rows: Array<{ n: number }> }).rows[0].n;
  }

  it('replaces a task where it stands, keeps its timestamps, and stores only that task again', async () => {
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Patched', plan: chain }), 'tester');
    const before = await getPlan(db(), id);
    expect(await storedTaskRows(id)).toBe(3);
    const { creation_time: _c, last_update_time: _l, ...summarise } = before.plan.planned_tasks[1];
    const saved = await patchPlan(db(), id, patch({ base_revision: 1, upsert_tasks: [{ ...summarise, description: 'Summarise briefly' }], message: 'shorter' }), 'tester');
    expect(saved).toMatchObject({ revision: 2, layout_only: false });

    const after = await getPlan(db(), id);
    expect(after.plan.planned_tasks.map((t) => [t.task_id, t.description])).toEqual([
      ['fetch', 'Fetch'],
      ['summarise', 'Summarise briefly'],
      ['report', 'Report'],
    ]);
    expect(after.plan.planned_tasks[1].creation_time).toBe(before.plan.planned_tasks[1].creation_time);
    expect(after.content_hash).toBe(saved.content_hash);
    expect(contentHash(after)).toBe(saved.content_hash);
    expect(await storedTaskRows(id)).toBe(4);
    // The base revision reads as it was.
    expect((await getPlan(db(), id, 1)).plan.planned_tasks[1].description).toBe('Summarise');
  });

  it('gives the same revision as a PUT of the same document', async () => {
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Same as PUT', plan: chain }), 'tester');
    const head = await getPlan(db(), id);
    const tasks = head.plan.planned_tasks;
    const added = { ...tasks[0], task_id: 'archive', description: 'Archive', dependencies: ['report'] };
    const edited = [tasks[0], tasks[2], added];
    const patched = await patchPlan(db(), id, patch({ base_revision: 1, remove_tasks: ['summarise'], upsert_tasks: [added], positions: { archive: { x: 10, y: 20 } }, job: { task_description: 'Archive reports' } }), 'tester');

    const { id: other } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Same as PUT', plan: chain }), 'tester');
    const otherHead = await getPlan(db(), other);
    const put = await savePlan(db(), other, SavePlanRequest.parse({ base_revision: 1, plan: { ...otherHead.plan, planned_tasks: edited }, job: { ...otherHead.job, task_description: 'Archive reports' }, view: { positions: { ...otherHead.view.positions, archive: { x: 10, y: 20 } }, collapsed: [] } }), 'tester');
    // Different plan ids and creation times make the documents differ; the shapes must not.
    const a = await getPlan(db(), id);
    const b = await getPlan(db(), other);
    expect(a.plan.planned_tasks.map((t) => t.task_id)).toEqual(['fetch', 'report', 'archive']);
    expect(b.plan.planned_tasks.map((t) => t.task_id)).toEqual(a.plan.planned_tasks.map((t) => t.task_id));
    expect(a.view).toEqual(b.view);
    expect(a.job.task_description).toBe('Archive reports');
    expect([patched.revision, put.revision]).toEqual([2, 2]);
    expect(contentHash(a)).toBe(patched.content_hash);
    expect(contentHash(b)).toBe(put.content_hash);
  });

  it('moves nodes without voiding anything: a positions-only change is layout-only', async () => {
    const { id, content_hash } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Moved', plan: chain }), 'tester');
    const saved = await patchPlan(db(), id, patch({ base_revision: 1, positions: { fetch: { x: 1, y: 2 } } }), 'tester');
    expect(saved).toEqual({ revision: 2, content_hash, layout_only: true });
    expect((await getPlan(db(), id)).view.positions.fetch).toEqual({ x: 1, y: 2 });
    const removed = await patchPlan(db(), id, patch({ base_revision: 2, positions: { fetch: null } }), 'tester');
    expect(removed.layout_only).toBe(true);
    // The plan was laid out as it was stored: the other tasks keep their places.
    const { view } = await getPlan(db(), id);
    expect(view.positions).not.toHaveProperty('fetch');
    expect(Object.keys(view.positions).sort()).toEqual(['report', 'summarise']);
  });

  it('refuses a stale base, an unknown task to remove and a task sent twice, and changes nothing', async () => {
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Refusals', plan: chain }), 'tester');
    await patchPlan(db(), id, patch({ base_revision: 1, positions: { fetch: { x: 1, y: 2 } } }), 'tester');
    const stale = await refusal(patchPlan(db(), id, patch({ base_revision: 1, remove_tasks: ['fetch'] }), 'tester'));
    expect([stale.status, stale.code, stale.extra]).toEqual([409, 'conflict', { current_revision: 2 }]);
    const unknown = await refusal(patchPlan(db(), id, patch({ base_revision: 2, remove_tasks: ['nope'] }), 'tester'));
    expect([unknown.status, unknown.message]).toEqual([422, 'Task "nope" is not in revision 2, so it cannot be removed']);
    const twice = await refusal(patchPlan(db(), id, patch({ base_revision: 2, upsert_tasks: [{ task_id: 'x' }, { task_id: 'x' }] }), 'tester'));
    expect(twice.status).toBe(400);
    const nul = await refusal(patchPlan(db(), id, patch({ base_revision: 2, upsert_tasks: [{ task_id: 'x', description: 'a\u0000b' }] }), 'tester'));
    expect(nul.status).toBe(400);
    const head = await getPlan(db(), id);
    expect([head.revision, head.plan.planned_tasks.length]).toEqual([2, 3]);
  });

  it('stores a one-task edit or drag of a 2,000-task plan as one task and one page of references', async () => {
    const big: TaskDataInput = {
      planned_tasks: Array.from({ length: 2_000 }, (_, i) => ({ task_id: `t${i}`, description: `Task ${i} `.repeat(20), execution_type: 'tool', tool_id: 'http_get', dependencies: i ? [`t${i - 1}`] : [] })),
    };
    const positions = Object.fromEntries(big.planned_tasks!.map((task, i) => [task.task_id, { x: i * 40, y: (i % 7) * 90 }]));
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Big', plan: big, view: { positions: { ...positions, box: { x: -5, y: -5 } }, collapsed: [] } }), 'tester');
    const head = await getPlan(db(), id);
    const pages = await storedPageRows(id);
    expect(pages).toBeGreaterThan(4);

    await patchPlan(db(), id, patch({ base_revision: 1, upsert_tasks: [{ ...head.plan.planned_tasks[1000], description: 'Edited' }] }), 'tester');
    expect([await storedTaskRows(id), await storedPageRows(id)]).toEqual([2_001, pages + 1]);
    const moved = await patchPlan(db(), id, patch({ base_revision: 2, positions: { t7: { x: 1, y: 2 } } }), 'tester');
    expect(moved.layout_only).toBe(true);
    expect([await storedTaskRows(id), await storedPageRows(id)]).toEqual([2_001, pages + 2]);

    // The revision row itself holds a page list, not a reference per task.
    const sizes = await db().execute(sql`select pg_column_size(body) + pg_column_size(page_hashes) as bytes from plan_revisions where plan_id = ${id} and revision = 3`);
    expect(Number((sizes as unknown as { rows: Array<{ bytes: number }> }).rows[0].bytes)).toBeLessThan(2_000 * 8);
    const after = await getPlan(db(), id);
    expect(after.view.positions).toEqual({ ...positions, box: { x: -5, y: -5 }, t7: { x: 1, y: 2 } });
    expect(after.plan.planned_tasks.map((task) => task.description)).toEqual(head.plan.planned_tasks.map((task, i) => (i === 1000 ? 'Edited' : task.description)));
    expect(after.content_hash).toBe(contentHash(after));
  });

  it('continues a plan whose head is hashed under version 1', async () => {
    const { id } = await createPlan(db(), CreatePlanRequest.parse({ title: 'Legacy', plan: chain }), 'tester');
    const whole = await getPlan(db(), id);
    // A revision saved before tasks were stored by hash, as migration 0017 left it: stored in
    // pages like any other, its hash over the whole document and its size not recorded.
    const v1 = contentHash(whole, 1);
    await db().execute(sql`update plan_revisions set document_bytes = null, hash_version = 1, content_hash = ${v1} where plan_id = ${id}`);
    await db().execute(sql`update plans set head_content_hash = ${v1} where id = ${id}`);
    expect((await getPlan(db(), id)).content_hash).toBe(v1);

    // Same content under the new definition: still layout-only, so approvals would stand.
    const moved = await patchPlan(db(), id, patch({ base_revision: 1, positions: { fetch: { x: 5, y: 5 } } }), 'tester');
    expect(moved.layout_only).toBe(true);
    expect(moved.content_hash).toBe(contentHash(whole));
    const edited = await patchPlan(db(), id, patch({ base_revision: 2, upsert_tasks: [{ ...whole.plan.planned_tasks[2], description: 'Report it' }] }), 'tester');
    expect(edited.layout_only).toBe(false);
    expect((await getPlan(db(), id, 2)).plan.planned_tasks).toEqual(whole.plan.planned_tasks);
    const head = await getPlan(db(), id);
    expect(head.plan.planned_tasks.map((t) => t.description)).toEqual(['Fetch', 'Summarise', 'Report it']);
    expect(head.content_hash).toBe(contentHash(head));
    expect((await getPlan(db(), id, 1)).content_hash).toBe(v1);
  });
});
