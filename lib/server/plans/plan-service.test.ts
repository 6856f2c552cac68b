import ELK from 'elkjs/lib/elk.bundled.js';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { layOutTasks } from '@/lib/layout/first-layout';
import { contentHash, type TaskDataInput } from '@/lib/plan';
import { SavePlanRequest, CreatePlanRequest } from '@/lib/api/schemas';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { AppError } from '../platform/errors';
import { createPlan, getPlan, getPlanJson, getRevisions, listPlanSummaries, savePlan, validateStoredPlan } from './plan-service';

const chain: TaskDataInput = {
  task_id: 'job-1',
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'http_get' },
    { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] },
  ],
};

const create = (title: string, plan: TaskDataInput = chain) => CreatePlanRequest.parse({ title, plan });
const save = (base: number, plan: TaskDataInput, extra: object = {}) =>
  SavePlanRequest.parse({ base_revision: base, plan, ...extra });

async function expectAppError(promise: Promise<unknown>, status: number): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(status);
  return error as AppError;
}

describe.each(testDatabases())('plan service on $name', (database) => {
  const db = useTestDatabase(database);

  it('creates revision 1 with the content hash of the stored document', async () => {
    const created = await createPlan(db(), create('Chain'), 'tester');
    expect(created.revision).toBe(1);
    const plan = await getPlan(db(), created.id);
    expect(plan.title).toBe('Chain');
    expect(plan.status).toBe('draft');
    expect(plan.plan.planned_tasks.map((t) => t.task_id)).toEqual(['fetch', 'summarise']);
    expect(plan.content_hash).toBe(created.content_hash);
    expect(contentHash(plan)).toBe(created.content_hash);
  });

  it('stores a plan made without positions laid out, as the editor would lay it out on opening', async () => {
    const { id } = await createPlan(db(), create('Unplaced'), 'tester');
    const { plan, view } = await getPlan(db(), id);
    expect(view.positions).toEqual(await layOutTasks(new ELK(), plan.planned_tasks));
    expect(view.positions.fetch!.x).toBeLessThan(view.positions.summarise!.x);
  });

  it('saves on the head revision and refuses a stale base with the current revision', async () => {
    const { id } = await createPlan(db(), create('Conflicts'), 'tester');
    const edited = { ...chain, planned_tasks: [...chain.planned_tasks!, { task_id: 'review', execution_type: 'agent', dependencies: ['summarise'] }] };
    const saved = await savePlan(db(), id, save(1, edited, { message: 'add review' }), 'tester');
    expect(saved.revision).toBe(2);

    const stale = await expectAppError(savePlan(db(), id, save(1, chain), 'tester'), 409);
    expect(stale.code).toBe('conflict');
    expect(stale.extra).toEqual({ current_revision: 2 });
    expect((await getPlan(db(), id)).plan.planned_tasks).toHaveLength(3);

    const revisions = await getRevisions(db(), id);
    expect(revisions.map((r) => [r.revision, r.parent_revision, r.message])).toEqual([
      [1, null, 'Created'],
      [2, 1, 'add review'],
    ]);
    const first = await getPlan(db(), id, 1);
    expect(first.plan.planned_tasks).toHaveLength(2);
    expect(first.head_revision).toBe(2);
  });

  it('stores a plan with validation errors as a draft and reports them', async () => {
    const cyclic: TaskDataInput = {
      planned_tasks: [
        { task_id: 'a', execution_type: 'tool', dependencies: ['b'] },
        { task_id: 'b', execution_type: 'tool', dependencies: ['a'] },
      ],
    };
    const { id } = await createPlan(db(), create('Cyclic', cyclic), 'tester');
    const result = await validateStoredPlan(db(), id);
    expect(result.valid).toBe(false);
    expect(result.issues[0]).toMatchObject({ code: 'cycle', task_ids: expect.arrayContaining(['a', 'b']) });
  });

  it('keeps job and view from the base revision when a save omits them', async () => {
    const { id } = await createPlan(
      db(),
      CreatePlanRequest.parse({ title: 'Keeps job', plan: chain, job: { job_goal: { objective: 'x' } }, view: { positions: { fetch: { x: 1, y: 2 } } } }),
      'tester',
    );
    await savePlan(db(), id, save(1, chain, { message: 'same tasks' }), 'tester');
    const plan = await getPlan(db(), id);
    expect(plan.job.job_goal).toEqual({ objective: 'x' });
    expect(plan.view.positions.fetch).toEqual({ x: 1, y: 2 });
  });

  it('sends a revision as text that reads back as getPlan reads it: every task in order, every position, the subgraphs and the seed 000 fields', async () => {
    const wide: TaskDataInput = {
      task_id: 'job-wide',
      creation_time: '2026-01-02T03:04:05.123456',
      planned_tasks: Array.from({ length: 700 }, (_, i) => ({
        task_id: `t${i}`,
        description: `Task ${i} "quoted" \u2014 ünïcode`,
        execution_type: i % 2 ? 'llm' : 'tool',
        tool_id: i % 2 ? null : 'http_get',
        dependencies: i ? [`t${i - 1}`] : [],
        estimate_data: { latency_ms: i },
        last_update_time: '2026-01-02T03:04:05.123456',
      })),
    };
    const { id } = await createPlan(db(), create('Wide', wide), 'tester');
    // Positions of every task (they live in the pages) and of a group (it lives in the body).
    const positions = Object.fromEntries([...wide.planned_tasks!.map((t, i) => [t.task_id, { x: i, y: 2 * i }]), ['group:a', { x: 5, y: 6 }]]);
    await savePlan(db(), id, save(1, wide, { subgraphs: [{ subgraph_id: 'a', task_ids: ['t0', 't1'], depends_on: [] }], view: { positions, collapsed: ['a'] }, message: 'placed' }), 'tester');
    for (const revision of [1, 2, undefined]) {
      const sent = await getPlanJson(db(), id, revision);
      const read = await getPlan(db(), id, revision);
      expect(JSON.parse(sent.json)).toEqual(read);
      expect(sent.plan).toEqual({ id, title: 'Wide', status: read.status, revision: read.revision, head_revision: 2, content_hash: read.content_hash, author: 'tester', message: read.message, created_at: read.created_at });
    }
    expect(JSON.parse((await getPlanJson(db(), id)).json).view.positions).toEqual(positions);
    const empty = await createPlan(db(), create('Empty', { task_id: 'job-empty', planned_tasks: [] }), 'tester');
    expect(JSON.parse((await getPlanJson(db(), empty.id)).json)).toEqual(await getPlan(db(), empty.id));
    await expectAppError(getPlanJson(db(), id, 3), 404);
  });

  it('answers a revision read again from what it sent, and still reads it as stored for what it acts on', async () => {
    const { id } = await createPlan(db(), create('Kept'), 'tester');
    const sent = (await getPlanJson(db(), id)).json;
    // A task edited in the database behind Plangate's back.
    await db().execute(sql`update plan_tasks set body = jsonb_set(body, '{description}', '"Edited in the database"') where plan_id = ${id}`);
    // A reader is answered the revision as it was written: its pages are named by their content.
    expect((await getPlanJson(db(), id)).json).toBe(sent);
    // What verifies and runs it (the approved hand-off's integrity check reads through getPlan) sees the edit.
    expect((await getPlan(db(), id)).plan.planned_tasks.map((t) => t.description)).toEqual(['Edited in the database', 'Edited in the database']);
  });

  it('reports unknown plans and revisions as not found', async () => {
    await expectAppError(getPlan(db(), 'nosuchplan'), 404);
    const { id } = await createPlan(db(), create('One revision'), 'tester');
    await expectAppError(getPlan(db(), id, 7), 404);
    await expectAppError(savePlan(db(), 'nosuchplan', save(1, chain), 'tester'), 404);
  });

  it('lists plans newest first, the last saved on top', async () => {
    const older = await createPlan(db(), create('Older'), 'tester');
    const newer = await createPlan(db(), create('Newer'), 'tester');
    let ids = (await listPlanSummaries(db())).map((p) => p.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    await savePlan(db(), older.id, save(1, chain), 'tester');
    ids = (await listPlanSummaries(db())).map((p) => p.id);
    expect(ids[0]).toBe(older.id);
  });

  it('lets exactly one of many concurrent saves of one base win, with no gap in revisions', async () => {
    const { id } = await createPlan(db(), create('Race'), 'tester');
    const attempts = Array.from({ length: 20 }, (_, i) =>
      savePlan(db(), id, save(1, { ...chain, status: `attempt-${i}` }), 'tester').then(
        () => 'saved',
        (e: unknown) => (e instanceof AppError && e.status === 409 ? 'conflict' : String(e)),
      ),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o === 'saved')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'conflict')).toHaveLength(19);
    expect((await getRevisions(db(), id)).map((r) => r.revision)).toEqual([1, 2]);
  });
});

describe.each(testDatabases())('plan service input hygiene on $name', (database) => {
  const db = useTestDatabase(database);

  it('keeps the content hash when the same content is saved again with fields left out', async () => {
    const { id, content_hash } = await createPlan(db(), create('Stable hash'), 'tester');
    const raw = { planned_tasks: [{ task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'http_get' }, { task_id: 'summarise', description: 'Summarise', execution_type: 'llm', dependencies: ['fetch'] }] };
    const first = await savePlan(db(), id, save(1, raw), 'tester');
    const second = await savePlan(db(), id, save(2, raw), 'tester');
    expect(first.content_hash).toBe(content_hash);
    expect(second.content_hash).toBe(content_hash);
  });

  it('warns about a title that hides bidi or zero-width characters, naming them', async () => {
    const { id } = await createPlan(db(), create('Pay invoice\u202Egnp.exe'), 'tester');
    const result = await validateStoredPlan(db(), id);
    expect(result.issues).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'invisible_characters', message: expect.stringContaining('U+202E') }));
  });

  it('keeps every task and field of the base revision when PUT sends plan: {} (omitted fields are not defaults)', async () => {
    const { id, content_hash } = await createPlan(db(), create('Empty save'), 'tester');
    const before = await getPlan(db(), id);
    const saved = await savePlan(db(), id, save(1, {}), 'tester');
    const after = await getPlan(db(), id);
    expect(after.revision).toBe(2);
    expect(after.plan).toEqual(before.plan);
    expect(saved.content_hash).toBe(content_hash);
    // A field that is given still wins, and the tasks it leaves out are kept.
    const renamed = await savePlan(db(), id, save(2, { status: 'in_progress' }), 'tester');
    expect(renamed.revision).toBe(3);
    const latest = await getPlan(db(), id);
    expect(latest.plan.status).toBe('in_progress');
    expect(latest.plan.planned_tasks.map((t) => t.task_id)).toEqual(['fetch', 'summarise']);
    // An explicit empty list still empties the plan.
    await savePlan(db(), id, save(3, { planned_tasks: [] }), 'tester');
    expect((await getPlan(db(), id)).plan.planned_tasks).toEqual([]);
  });

  it('parses a save once, leaving out what was left out, and fills it from the base: plan fields, and task times by task_id', async () => {
    const at = '2026-01-02T03:04:05.123456';
    const stamped = { ...chain, creation_time: at, update_time: at, planned_tasks: chain.planned_tasks!.map((task) => ({ ...task, creation_time: at, last_update_time: at })) };
    const { id } = await createPlan(db(), create('Base times', stamped), 'tester');
    const request = save(1, { planned_tasks: [{ task_id: 'fetch', description: 'Fetch it' }, { task_id: 'new', description: 'New' }] });
    // No id, no clock, no default list: the parsed request holds only what was sent.
    expect(Object.keys(request.plan)).toEqual(['planned_tasks']);
    expect(request.plan.planned_tasks![0]).not.toHaveProperty('creation_time');
    await savePlan(db(), id, request, 'tester');
    const saved = (await getPlan(db(), id)).plan;
    expect([saved.task_id, saved.creation_time, saved.update_time]).toEqual(['job-1', at, at]);
    expect(saved.planned_tasks[0]).toMatchObject({ task_id: 'fetch', description: 'Fetch it', creation_time: at, last_update_time: at });
    // A task the base lacks is stamped once, with the save's time.
    expect(saved.planned_tasks[1].task_id).toBe('new');
    expect(saved.planned_tasks[1].creation_time).not.toBe(at);
    expect(saved.planned_tasks[1].last_update_time).toBe(saved.planned_tasks[1].creation_time);
  });

  it('stores seed 000 fields as sent: l2_task, client timestamps, free-form estimate_data', async () => {
    const at = '2026-01-02T03:04:05.123456';
    const plan = {
      creation_time: at,
      update_time: at,
      planned_tasks: [
        { task_id: 'a', execution_type: 'l2_task', parameters: { sub_type: 'tools' }, tool_id: 'http_get', creation_time: at, last_update_time: at, estimate_data: 'about a minute' },
        { task_id: 'b', execution_type: 'tool_call', tool_id: 'http_get', dependencies: ['a'], estimate_data: { latency_ms: 5, nested: { why: ['x'] } } },
      ],
    };
    const { id } = await createPlan(db(), create('Seed 000', plan), 'tester');
    const stored = (await getPlan(db(), id)).plan;
    expect(stored.creation_time).toBe(at);
    expect(stored.planned_tasks.map((t) => [t.execution_type, t.estimate_data])).toEqual([
      ['l2_task', 'about a minute'],
      ['tool_call', { latency_ms: 5, nested: { why: ['x'] } }],
    ]);
    expect(stored.planned_tasks[0].creation_time).toBe(at);
    // Filled in by Plangate: Python's naive datetime.isoformat() form.
    expect(stored.planned_tasks[1].creation_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?$/);
  });

  it('refuses NUL characters, unpaired surrogates and absurd nesting with a 400, storing nothing', async () => {
    await expectAppError(createPlan(db(), create('Has \u0000 NUL'), 'tester'), 400);
    const lone = { planned_tasks: [{ task_id: 'a', description: 'broken \ud800 text' }] };
    expect((await expectAppError(createPlan(db(), create('Lone surrogate', lone), 'tester'), 400)).message).toContain('surrogate');
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) deep = { inner: deep };
    expect(() => create('Deep', { planned_tasks: [{ task_id: 'a', parameters: deep }] })).toThrow(/Nested more than 64 levels deep/);
    const titles = (await listPlanSummaries(db())).map((p) => p.title);
    expect(titles).not.toContain('Lone surrogate');
  });

  it('answers a malformed plan id with not found instead of a database error', async () => {
    await expectAppError(getPlan(db(), 'a\u0000b'), 404);
  });
});
