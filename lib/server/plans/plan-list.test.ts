import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PageQuery, PlanListQuery, type PlanListInput } from '@/lib/api/list-schemas';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import type { TaskDataInput } from '@/lib/plan';
import { reviewQueuePage, submitForReview } from '../approval/approval-service';
import { planAuditPage } from '../audit/plan-audit-page';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { AppError } from '../platform/errors';
import { parseQuery } from '../platform/http/read-query';
import { FETCH_THEN_SUMMARISE, principal } from '../platform/test-support';
import { createPlan, getRevisionPage, listPlans, savePlan } from './plan-service';

const tasks = (n: number): TaskDataInput => ({
  task_id: 'job',
  planned_tasks: Array.from({ length: n }, (_, i) => ({ task_id: `t${i}`, description: `Task ${i}`, execution_type: 'llm' as const })),
});

async function refused(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(400);
  return error as AppError;
}

function refusedSync(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return error as AppError;
  }
  throw new Error('expected a 400');
}

describe.each(testDatabases())('plan lists on $name', (database) => {
  const db = useTestDatabase(database);
  // Each test lists only its own plans: titles carry a tag no other test uses.
  const tagged = () => `tag${randomUUID().slice(0, 8)}`;
  const make = (title: string, plan: TaskDataInput = tasks(1), author = 'tester') =>
    createPlan(db(), CreatePlanRequest.parse({ title, plan }), author);
  const list = (input: PlanListInput) => listPlans(db(), PlanListQuery.parse(input));

  /** Every page of a list, running `between` after each page but the last. */
  async function walk(input: PlanListInput, between: (page: number) => Promise<void> = async () => {}) {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const result = await list({ ...input, cursor });
      ids.push(...result.plans.map((p) => p.id));
      if (!result.next_cursor) return ids;
      cursor = result.next_cursor;
      await between(page);
    }
    throw new Error('walk: too many pages');
  }

  it('pages newest first without skipping or repeating a plan while plans are created between pages', async () => {
    const tag = tagged();
    const original: string[] = [];
    for (let i = 0; i < 7; i++) original.push((await make(`${tag} plan ${i}`)).id);
    const added: string[] = [];
    const seen = await walk({ q: tag, limit: 3 }, async () => {
      added.push((await make(`${tag} late`)).id);
    });
    expect(new Set(seen).size).toBe(seen.length);
    // Newest first: the plans created after the walk began are above the cursor, so unseen.
    expect(seen).toEqual([...original].reverse());
    expect(added).toHaveLength(2);
  });

  it('pages by title in either order, resuming after the cursor when titles sort before and after it are added', async () => {
    const tag = tagged();
    for (const letter of ['b', 'd', 'f', 'h', 'j']) await make(`${tag} ${letter}`);
    const titles = async (order: 'asc' | 'desc', between?: (page: number) => Promise<void>) => {
      const ids = await walk({ q: tag, sort: 'title', order, limit: 2 }, between);
      const all = (await list({ q: tag, limit: 200 })).plans;
      return ids.map((id) => all.find((p) => p.id === id)!.title.slice(tag.length + 1));
    };
    expect(await titles('desc')).toEqual(['j', 'h', 'f', 'd', 'b']);
    // After the first page (b, d): "a" sorts before the cursor, "e" after it.
    const seen = await titles('asc', async (page) => {
      if (page === 0) {
        await make(`${tag} a`);
        await make(`${tag} e`);
      }
    });
    expect(seen).toEqual(['b', 'd', 'e', 'f', 'h', 'j']);
  });

  it('filters by status, creator and text, with LIKE wildcards matched literally', async () => {
    const tag = tagged();
    const draft = await make(`${tag} 100% done_ok`, FETCH_THEN_SUMMARISE, 'carol');
    const inReview = await make(`${tag} 100 done ok`, FETCH_THEN_SUMMARISE, 'dave');
    await submitForReview(db(), inReview.id, {}, principal('dave', 'editor'));
    // A later revision by someone else does not make them the plan's author.
    await savePlan(db(), draft.id, SavePlanRequest.parse({ base_revision: 1, plan: FETCH_THEN_SUMMARISE, title: `${tag} 100% done_ok` }), 'erin');

    const ids = async (input: PlanListInput) => (await list({ q: tag, ...input })).plans.map((p) => p.id).sort();
    expect(await ids({ status: 'in_review' })).toEqual([inReview.id]);
    expect(await ids({ status: 'draft,in_review' })).toEqual([draft.id, inReview.id].sort());
    expect(await ids({ status: 'approved' })).toEqual([]);
    expect(await ids({ author: 'carol' })).toEqual([draft.id]);
    expect(await ids({ author: 'erin' })).toEqual([]);
    expect(await ids({ q: `${tag} 100%` })).toEqual([draft.id]);
    expect(await ids({ q: `${tag} 100 done_` })).toEqual([]);
    expect(await ids({ q: `${tag.toUpperCase()} 100 DONE` })).toEqual([inReview.id]);
    // The plan id is searched too.
    expect((await list({ q: draft.id })).plans.map((p) => p.id)).toEqual([draft.id]);
  });

  it('shows the head revision task count, the creator and both dates, and sorts by creation', async () => {
    const tag = tagged();
    const first = await make(`${tag} first`, tasks(3), 'carol');
    const second = await make(`${tag} second`, tasks(1), 'dave');
    await savePlan(db(), first.id, SavePlanRequest.parse({ base_revision: 1, plan: tasks(5) }), 'erin');

    const byUpdate = (await list({ q: tag })).plans;
    expect(byUpdate.map((p) => [p.title.slice(tag.length + 1), p.task_count, p.author, p.revision])).toEqual([
      ['first', 5, 'carol', 2],
      ['second', 1, 'dave', 1],
    ]);
    expect(Date.parse(byUpdate[0].updated_at)).toBeGreaterThan(Date.parse(byUpdate[0].created_at));
    expect((await list({ q: tag, sort: 'created' })).plans.map((p) => p.id)).toEqual([second.id, first.id]);
    expect((await list({ q: tag, sort: 'created', order: 'asc' })).plans.map((p) => p.id)).toEqual([first.id, second.id]);
  });

  it('refuses a bad cursor, one made for another sort, and bad query strings with a 400', async () => {
    const tag = tagged();
    for (let i = 0; i < 3; i++) await make(`${tag} ${i}`);
    const byTitle = await list({ q: tag, sort: 'title', limit: 1 });
    expect(byTitle.next_cursor).toEqual(expect.any(String));
    expect((await refused(list({ q: tag, cursor: 'not-a-cursor' }))).message).toBe('Invalid cursor');
    expect((await refused(list({ q: tag, cursor: byTitle.next_cursor! }))).message).toBe('Invalid cursor');
    const forged = Buffer.from(JSON.stringify({ list: 'plans:updated:desc', key: ['yesterday', 'x'] })).toString('base64url');
    expect((await refused(list({ cursor: forged }))).message).toBe('Invalid cursor');

    const parse = (query: string) => parseQuery(new URLSearchParams(query), PlanListQuery);
    expect(refusedSync(() => parse('stauts=draft')).message).toMatch(/Unknown query parameter "stauts"/);
    expect(refusedSync(() => parse('status=draft,done')).message).toMatch(/Unknown status "done"/);
    expect(refusedSync(() => parse('limit=201')).message).toMatch(/limit/);
    expect(refusedSync(() => parse(`q=${'x'.repeat(101)}`)).message).toMatch(/q/);
    expect(refusedSync(() => parse('sort=updated&sort=title')).message).toMatch(/more than once/);
    // A form's blank fields are no filter at all.
    expect(parse('q=&status=&sort=title')).toEqual({ limit: 50, sort: 'title' });
  });

  it('pages revisions, audit events and the review queue by their keys', async () => {
    const { id } = await make(`${tagged()} history`, FETCH_THEN_SUMMARISE);
    for (let base = 1; base <= 4; base++) {
      await savePlan(db(), id, SavePlanRequest.parse({ base_revision: base, plan: tasks(base) }), 'tester');
    }
    const first = await getRevisionPage(db(), id, PageQuery.parse({ limit: 2 }));
    expect(first.revisions.map((r) => r.revision)).toEqual([1, 2]);
    const second = await getRevisionPage(db(), id, PageQuery.parse({ limit: 2, cursor: first.next_cursor }));
    expect(second.revisions.map((r) => r.revision)).toEqual([3, 4]);
    const last = await getRevisionPage(db(), id, PageQuery.parse({ limit: 2, cursor: second.next_cursor }));
    expect(last).toEqual({ revisions: [expect.objectContaining({ revision: 5 })], next_cursor: null });
    // A revision list's cursor belongs to that plan's revisions only.
    expect((await refused(planAuditPage(db(), id, PageQuery.parse({ cursor: first.next_cursor })))).message).toBe('Invalid cursor');

    const audit = await planAuditPage(db(), id, PageQuery.parse({ limit: 3 }));
    expect(audit.events.map((e) => e.kind)).toEqual(['created', 'revised', 'revised']);
    const rest = await planAuditPage(db(), id, PageQuery.parse({ limit: 3, cursor: audit.next_cursor }));
    expect(rest.events.map((e) => e.kind)).toEqual(['revised', 'revised']);
    expect(rest.next_cursor).toBeNull();

    const queued: string[] = [];
    for (let i = 0; i < 3; i++) {
      const plan = await make(`${tagged()} queued`, FETCH_THEN_SUMMARISE);
      await submitForReview(db(), plan.id, {}, principal('tester', 'editor'));
      queued.push(plan.id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await reviewQueuePage(db(), PageQuery.parse({ limit: 2, cursor }));
      expect(page.plans.length).toBeLessThanOrEqual(2);
      seen.push(...page.plans.map((p) => p.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => queued.includes(id))).toEqual(queued);
  });
});
