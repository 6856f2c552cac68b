import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MarkReadRequest } from '@/lib/api/inbox-schemas';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { ToolResource } from '@/lib/registry';
import { decide, submitForReview } from '../approval/approval-service';
import { createUser } from '../auth/users';
import { inboxItems } from '../platform/db/schema';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { createPlan, savePlan } from '../plans/plan-service';
import { putResource } from '../registry/registry-service';
import { FETCH_THEN_SUMMARISE, principal, refusal } from '../platform/test-support';
import { listInbox, markRead, markReviewRequestsDone, unreadCount } from './inbox-service';
import { notify } from './notify';

const chain = FETCH_THEN_SUMMARISE;
const editor = principal('eddie', 'editor');
const coEditor = principal('erin', 'editor');
const alice = principal('alice', 'approver');
const bob = principal('bob', 'approver');

describe('mark-read requests', () => {
  it('name some items or all of them, nothing else', () => {
    expect(MarkReadRequest.safeParse({ ids: [1, 2] }).success).toBe(true);
    expect(MarkReadRequest.safeParse({ all: true }).success).toBe(true);
    for (const bad of [{}, { ids: [] }, { all: false }, { ids: [1], all: true }, { ids: Array.from({ length: 201 }, (_, i) => i + 1) }]) {
      expect(MarkReadRequest.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe.each(testDatabases())('the inbox on $name', (database) => {
  const db = useTestDatabase(database);

  async function planFor(title: string) {
    return createPlan(db(), CreatePlanRequest.parse({ title, plan: chain }), editor.username);
  }

  const itemsOf = async (username: string, planId: string) => (await listInbox(db(), username, { limit: 100 })).items.filter((i) => i.plan_id === planId);

  it('tells the submitter and the authors since the last approval of each decision, with its comment', async () => {
    const { id, content_hash } = await planFor('Decided');
    const saved = await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 1, plan: { ...chain, status: 'edited' } }), coEditor.username);
    await submitForReview(db(), id, {}, editor);
    await decide(db(), id, 'changes_requested', { revision: 2, content_hash: saved.content_hash, comment: 'Fetch only last week' }, alice);

    for (const person of ['eddie', 'erin']) {
      const [item] = await itemsOf(person, id);
      expect(item).toMatchObject({ kind: 'decision', actor: 'alice', revision: 2, read_at: null });
      expect(item.summary).toBe('alice requested changes to r2 of “Decided”: Fetch only last week');
    }
    // The one who decided is not told about their own decision.
    expect(await itemsOf('alice', id)).toEqual([]);
    expect(content_hash).not.toBe(saved.content_hash);
  });

  it('writes nothing when the decision is refused', async () => {
    const { id, content_hash } = await planFor('Refused');
    await submitForReview(db(), id, {}, editor);
    await refusal(decide(db(), id, 'approved', { revision: 1, content_hash: `sha256:${'0'.repeat(64)}`, comment: '' }, alice));
    expect(await db().select().from(inboxItems).where(eq(inboxItems.planId, id))).toEqual([]);
    await decide(db(), id, 'approved', { revision: 1, content_hash, comment: '' }, alice);
    expect((await itemsOf('eddie', id)).map((i) => i.summary)).toEqual(['alice approved r1 of “Refused”.']);
  });

  it('keeps items with the action that caused them: a rolled-back transaction leaves none', async () => {
    const { id } = await planFor('Rolled back');
    await db()
      .transaction(async (tx) => {
        await notify(tx, { recipients: ['bob'], kind: 'mention', planId: id, actor: 'eddie', summary: 'never' });
        throw new Error('the action failed after telling bob');
      })
      .catch(() => undefined);
    expect(await itemsOf('bob', id)).toEqual([]);
  });

  it('tells the approvers and the submitter when a save voids their approvals', async () => {
    const { id, content_hash } = await planFor('Voided by a save');
    await submitForReview(db(), id, {}, coEditor);
    await decide(db(), id, 'approved', { revision: 1, content_hash, comment: '' }, alice);
    await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 1, plan: { ...chain, status: 'changed' } }), editor.username);

    const [voided] = (await itemsOf('alice', id)).filter((i) => i.kind === 'approval_voided');
    expect(voided).toMatchObject({ actor: 'eddie', revision: 1 });
    expect(voided.summary).toBe('The approval of “Voided by a save” r1 by alice no longer stands: eddie saved revision 2.');
    expect((await itemsOf('erin', id)).map((i) => i.kind)).toEqual(['approval_voided', 'decision']);
    // A layout-only save voids nothing and tells no one.
    const before = (await db().select().from(inboxItems).where(eq(inboxItems.planId, id))).length;
    await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 2, plan: { ...chain, status: 'changed' }, view: { positions: { fetch: { x: 5, y: 5 } } } }), editor.username);
    expect((await db().select().from(inboxItems).where(eq(inboxItems.planId, id))).length).toBe(before);
  });

  it('tells the approvers and the submitter when a registry change voids their approvals', async () => {
    const { id, content_hash } = await planFor('Voided by the registry');
    await submitForReview(db(), id, {}, editor);
    await decide(db(), id, 'approved', { revision: 1, content_hash, comment: '' }, bob);
    await putResource(db(), 'tools', 'http_get', ToolResource.parse({ id: 'http_get', description: 'GET a URL, differently' }), 'mallory');

    for (const person of ['bob', 'eddie']) {
      const [voided] = (await itemsOf(person, id)).filter((i) => i.kind === 'approval_voided');
      expect(voided.actor).toBe('mallory');
      expect(voided.summary).toBe('The approval of “Voided by the registry” r1 by bob no longer stands: mallory changed registry resources it routes to (tools/http_get).');
    }
  });

  it('marks a reviewer\'s review requests for a plan done once they decide on it, and nothing else', async () => {
    for (const username of ['rita', 'ron']) await createUser(db(), { username, password: `${username}-password`, role: 'approver' }, 'setup');
    const rita = principal('rita', 'approver');
    const { id, content_hash } = await planFor('Asked of rita');
    const other = await planFor('Also asked of rita');
    await submitForReview(db(), id, { reviewers: ['rita', 'ron'] }, editor);
    await submitForReview(db(), other.id, { reviewers: ['rita'] }, editor);
    await db().transaction((tx) => notify(tx, { recipients: ['rita'], kind: 'mention', planId: id, actor: 'eddie', summary: 'a mention, not a request' }));
    const unread = async (username: string) => (await listInbox(db(), username, { limit: 50 })).items.filter((i) => i.read_at === null).map((i) => [i.plan_title, i.kind]);
    expect(await unreadCount(db(), 'rita')).toBe(3);

    // A refused decision answers nothing.
    await refusal(decide(db(), id, 'approved', { revision: 1, content_hash: `sha256:${'0'.repeat(64)}`, comment: '' }, rita));
    expect(await unreadCount(db(), 'rita')).toBe(3);

    await decide(db(), id, 'changes_requested', { revision: 1, content_hash, comment: 'Not yet' }, rita);
    expect(await unread('rita')).toEqual([
      ['Asked of rita', 'mention'],
      ['Also asked of rita', 'review_requested'],
    ]);
    const done = (await itemsOf('rita', id)).find((i) => i.kind === 'review_requested');
    expect(done?.read_at).not.toBeNull();
    // Ron was asked too and has not decided: his request still waits.
    expect(await unread('ron')).toEqual([['Asked of rita', 'review_requested']]);
    // Done items stay done: answering again marks nothing.
    expect(await markReviewRequestsDone(db(), 'rita', id)).toBe(0);
  });

  it('shows each person only their own items, and lets them mark only their own read', async () => {
    const { id } = await planFor('Private');
    await db().transaction(async (tx) => {
      await notify(tx, { recipients: ['carol'], kind: 'mention', planId: id, taskId: 'fetch', actor: 'eddie', summary: 'for carol' });
      await notify(tx, { recipients: ['dave'], kind: 'mention', planId: id, actor: 'eddie', summary: 'for dave' });
    });
    const carol = await listInbox(db(), 'carol', { limit: 50 });
    const dave = await listInbox(db(), 'dave', { limit: 50 });
    expect(carol.items.map((i) => [i.summary, i.task_id])).toEqual([['for carol', 'fetch']]);
    expect(dave.items.map((i) => i.summary)).toEqual(['for dave']);

    // Dave names carol's item: nothing of hers changes.
    expect(await markRead(db(), 'dave', { ids: [carol.items[0].id] })).toEqual({ marked: 0, unread: 1 });
    expect(await unreadCount(db(), 'carol')).toBe(1);
    // Dave marks all of his: still nothing of hers.
    expect(await markRead(db(), 'dave', { all: true })).toEqual({ marked: 1, unread: 0 });
    expect((await listInbox(db(), 'carol', { limit: 50 })).items[0].read_at).toBeNull();
  });

  it('counts unread items, marks one or all read, and pages newest first', async () => {
    const { id } = await planFor('Busy');
    await db().transaction(async (tx) => {
      for (const n of [1, 2, 3, 4, 5]) await notify(tx, { recipients: ['frank'], kind: 'comment', planId: id, actor: 'eddie', summary: `comment ${n}` });
    });
    const first = await listInbox(db(), 'frank', { limit: 2 });
    expect(first.unread).toBe(5);
    expect(first.items.map((i) => i.summary)).toEqual(['comment 5', 'comment 4']);
    const second = await listInbox(db(), 'frank', { limit: 2, before: first.next_cursor! });
    expect(second.items.map((i) => i.summary)).toEqual(['comment 3', 'comment 2']);
    const last = await listInbox(db(), 'frank', { limit: 2, before: second.next_cursor! });
    expect([last.items.map((i) => i.summary), last.next_cursor]).toEqual([['comment 1'], null]);

    expect(await markRead(db(), 'frank', { ids: [first.items[0].id] })).toEqual({ marked: 1, unread: 4 });
    // Marking it again changes nothing.
    expect(await markRead(db(), 'frank', { ids: [first.items[0].id] })).toEqual({ marked: 0, unread: 4 });
    expect((await listInbox(db(), 'frank', { limit: 1 })).items[0].read_at).not.toBeNull();
    expect(await markRead(db(), 'frank', { all: true })).toEqual({ marked: 4, unread: 0 });
    expect(await unreadCount(db(), 'frank')).toBe(0);
  });
});
