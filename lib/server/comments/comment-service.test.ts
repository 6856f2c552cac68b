import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CreateCommentRequest } from '@/lib/api/comment-schemas';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { CreateWebhookRequest, WebhookPayload } from '@/lib/api/webhook-schemas';
import { decide, submitForReview } from '../approval/approval-service';
import { listPlanAudit } from '../audit/audit-log';
import { createUser } from '../auth/users';
import { inboxItems, webhookDeliveries } from '../platform/db/schema';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { createPlan, savePlan } from '../plans/plan-service';
import { FETCH_THEN_SUMMARISE, principal, refusal } from '../platform/test-support';
import { createWebhook } from '../webhooks/webhook-service';
import { createComment, listComments, setThreadResolved } from './comment-service';
import { decisionNotice } from './decision-notice';

const editor = principal('eddie', 'editor');
const approver = principal('alice', 'approver');
const viewerName = 'vera';

const request = (input: unknown) => CreateCommentRequest.parse(input);

describe('comment bodies', () => {
  it('are trimmed and must hold 1 to 5,000 characters', () => {
    expect(CreateCommentRequest.parse({ body: '  fine  ', revision: 1 }).body).toBe('fine');
    for (const body of ['', '   ', 'x'.repeat(5001), 'nul \u0000 here']) {
      expect(CreateCommentRequest.safeParse({ body, revision: 1 }).success, JSON.stringify(body.slice(0, 20))).toBe(false);
    }
    expect(CreateCommentRequest.safeParse({ body: 'x', revision: 1, author: 'mallory' }).success).toBe(false);
  });
});

describe.each(testDatabases())('comment threads on $name', (database) => {
  const db = useTestDatabase(database);

  async function plan(title = 'Commented') {
    return createPlan(db(), CreatePlanRequest.parse({ title, plan: FETCH_THEN_SUMMARISE }), editor.username);
  }

  it('starts a thread on a task, takes replies, and lists it with its task', async () => {
    const { id } = await plan();
    const { thread } = await createComment(db(), id, request({ task_id: 'fetch', body: 'Which endpoint does this call?', revision: 1 }), approver);
    expect(thread).toMatchObject({ task_id: 'fetch', revision: 1, author: 'alice', resolved_at: null, on_removed_task: false });
    const reply = await createComment(db(), id, request({ thread_id: thread.id, body: 'The shipments API.', revision: 1 }), editor);
    expect(reply.comment).toMatchObject({ thread_id: thread.id, task_id: 'fetch', author: 'eddie' });
    await createComment(db(), id, request({ task_id: null, body: 'Overall this looks right.', revision: 1 }), approver);

    const listed = await listComments(db(), id);
    expect(listed.revision).toBe(1);
    expect(listed.threads.map((t) => [t.task_id, t.comments.map((c) => c.body)])).toEqual([
      ['fetch', ['Which endpoint does this call?', 'The shipments API.']],
      [null, ['Overall this looks right.']],
    ]);
  });

  it('resolves and reopens a thread by any of its comments, once each, with audit rows', async () => {
    const { id } = await plan();
    const { thread } = await createComment(db(), id, request({ task_id: 'summarise', body: 'Needs a word limit', revision: 1 }), approver);
    const { comment: reply } = await createComment(db(), id, request({ thread_id: thread.id, body: 'Added', revision: 1 }), editor);

    const resolved = await setThreadResolved(db(), id, reply.id, true, editor);
    expect(resolved).toMatchObject({ id: thread.id, resolved_by: 'eddie' });
    expect(resolved.resolved_at).not.toBeNull();
    expect((await refusal(setThreadResolved(db(), id, thread.id, true, approver))).status).toBe(409);

    const reopened = await setThreadResolved(db(), id, thread.id, false, approver);
    expect(reopened).toMatchObject({ resolved_at: null, resolved_by: null });
    expect((await refusal(setThreadResolved(db(), id, thread.id, false, approver))).status).toBe(409);

    const audit = await listPlanAudit(db(), id);
    const kinds = audit.filter((row) => row.kind.startsWith('comment_')).map((row) => [row.kind, row.actor]);
    expect(kinds).toEqual([
      ['comment_created', 'alice'],
      ['comment_created', 'eddie'],
      ['comment_resolved', 'eddie'],
      ['comment_reopened', 'alice'],
    ]);
    expect(audit.find((row) => row.kind === 'comment_created')?.detail).toMatchObject({ thread_id: thread.id, task_id: 'summarise', body: 'Needs a word limit' });
  });

  it('carries threads to later revisions, and lists one whose task was removed as on a removed task', async () => {
    const { id } = await plan();
    await createComment(db(), id, request({ task_id: 'fetch', body: 'Keep this one', revision: 1 }), approver);
    await createComment(db(), id, request({ task_id: 'summarise', body: 'Drop this step?', revision: 1 }), approver);
    await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 1, plan: { ...FETCH_THEN_SUMMARISE, planned_tasks: [FETCH_THEN_SUMMARISE.planned_tasks![0]] } }), editor.username);
    await createComment(db(), id, request({ task_id: 'fetch', body: 'Written on r2', revision: 2 }), approver);

    const head = await listComments(db(), id);
    expect(head.revision).toBe(2);
    expect(head.threads.map((t) => [t.task_id, t.on_removed_task])).toEqual([
      ['fetch', false],
      ['summarise', true],
      ['fetch', false],
    ]);
    // Revision 1 still has both tasks and knows nothing of what was written on r2.
    const first = await listComments(db(), id, 1);
    expect(first.threads.map((t) => [t.task_id, t.on_removed_task])).toEqual([
      ['fetch', false],
      ['summarise', false],
    ]);
  });

  it('refuses a task, thread, revision or plan that does not exist, and changes nothing', async () => {
    const { id } = await plan();
    const missingTask = await refusal(createComment(db(), id, request({ task_id: 'nope', body: 'x', revision: 1 }), approver));
    expect([missingTask.status, missingTask.message]).toEqual([422, 'Task "nope" is not in revision 1 of plan "' + id + '"']);
    expect((await refusal(createComment(db(), id, request({ thread_id: 'no-such-thread', body: 'x', revision: 1 }), approver))).status).toBe(404);
    expect((await refusal(createComment(db(), id, request({ task_id: 'fetch', body: 'x', revision: 7 }), approver))).status).toBe(404);
    expect((await refusal(createComment(db(), 'no-such-plan', request({ body: 'x', revision: 1 }), approver))).status).toBe(404);
    const { thread } = await createComment(db(), id, request({ task_id: 'fetch', body: 'root', revision: 1 }), approver);
    const wrongTask = await refusal(createComment(db(), id, request({ thread_id: thread.id, task_id: 'summarise', body: 'x', revision: 1 }), approver));
    expect(wrongTask.status).toBe(400);
    expect((await refusal(setThreadResolved(db(), id, 'no-such-comment', true, approver))).status).toBe(404);
    expect((await listComments(db(), id)).threads).toHaveLength(1);
  });

  it('queues comment.created for subscribed webhooks in the same transaction', async () => {
    const hook = await createWebhook(db(), CreateWebhookRequest.parse({ url: 'https://hooks.example/comments', events: ['comment.created'] }), 'root');
    const { id } = await plan();
    const { comment } = await createComment(db(), id, request({ task_id: 'fetch', body: `Long ${'words '.repeat(100)}`, revision: 1 }), approver);
    const rows = await db().select().from(webhookDeliveries).where(and(eq(webhookDeliveries.webhookId, hook.id), eq(webhookDeliveries.planId, id)));
    expect(rows).toHaveLength(1);
    const payload = WebhookPayload.parse(JSON.parse(rows[0].body));
    expect(payload).toMatchObject({ event: 'comment.created', actor: 'alice', detail: { comment_id: comment.id, task_id: 'fetch', thread_id: comment.thread_id } });
    expect(String(payload.detail.excerpt).length).toBeLessThanOrEqual(200);
    expect(String(payload.detail.excerpt)).toMatch(/^Long words/);
  });

  it('tells mentioned users (that exist) and the plan\'s people, never the author', async () => {
    await createUser(db(), { username: viewerName, password: 'vera-pass-1', role: 'viewer' }, 'root');
    const { id } = await plan();
    await submitForReview(db(), id, {}, editor);
    const { thread } = await createComment(db(), id, request({ task_id: 'fetch', body: `@${viewerName} and @ghost, please look. Mail bob@example.com`, revision: 1 }), approver);
    const items = async () =>
      (await db().select().from(inboxItems).where(eq(inboxItems.planId, id))).map((row) => [row.recipient, row.kind, row.taskId]).sort();
    expect(await items()).toEqual([
      ['eddie', 'comment', 'fetch'],
      ['vera', 'mention', 'fetch'],
    ]);
    // The editor's reply tells the thread's other participant.
    await createComment(db(), id, request({ thread_id: thread.id, body: 'Done', revision: 1 }), editor);
    expect(await items()).toEqual([
      ['alice', 'comment', 'fetch'],
      ['eddie', 'comment', 'fetch'],
      ['vera', 'mention', 'fetch'],
    ]);
  });

  it('turns a request for changes into a notice naming the tasks in its comment and the reviewer\'s open threads', async () => {
    const created = await plan();
    const id = created.id;
    await submitForReview(db(), id, {}, editor);
    await createComment(db(), id, request({ task_id: 'summarise', body: 'Too vague', revision: 1 }), approver);
    expect(await decisionNotice(db(), id, ['fetch', 'summarise'])).toBeNull();
    await decide(db(), id, 'changes_requested', { revision: 1, content_hash: created.content_hash, comment: 'Please check `fetch`.' }, approver);
    const notice = await decisionNotice(db(), id, ['fetch', 'summarise']);
    expect(notice).toMatchObject({ decision: 'changes_requested', reviewer: 'alice', revision: 1, comment: 'Please check `fetch`.', taskIds: ['fetch', 'summarise'] });
    await submitForReview(db(), id, {}, editor);
    expect(await decisionNotice(db(), id, ['fetch', 'summarise'])).toBeNull();
  });

  it('holds at most 500 threads per plan and 100 comments per thread', async () => {
    const { id } = await plan();
    const { planComments } = await import('../platform/db/schema');
    await db()
      .insert(planComments)
      .values(Array.from({ length: 500 }, (_, i) => ({ id: `c${i}`, threadId: `c${i}`, planId: id, revision: 1, author: 'bulk', body: 'x' })));
    const full = await refusal(createComment(db(), id, request({ body: 'one more', revision: 1 }), approver));
    expect([full.status, full.message]).toEqual([422, 'This plan has 500 comment threads, the most a plan can hold; reply in an existing thread']);
    expect((await createComment(db(), id, request({ thread_id: 'c0', body: 'a reply still fits', revision: 1 }), approver)).comment.thread_id).toBe('c0');

    await db()
      .insert(planComments)
      .values(Array.from({ length: 98 }, (_, i) => ({ id: `r${i}`, threadId: 'c1', planId: id, revision: 1, author: 'bulk', body: 'x' })));
    await createComment(db(), id, request({ thread_id: 'c1', body: 'the hundredth', revision: 1 }), approver);
    const long = await refusal(createComment(db(), id, request({ thread_id: 'c1', body: 'one too many', revision: 1 }), approver));
    expect([long.status, long.message]).toEqual([422, 'This thread has 100 comments, the most a thread can hold; start a new thread']);
  });

  it('refuses a 31st comment by one author within a minute, across plans, with 429 and when to retry', async () => {
    const rita = principal('rita', 'approver');
    const [first, second] = [await plan('First'), await plan('Second')];
    const { planComments } = await import('../platform/db/schema');
    // An hour ago does not count; the last minute does.
    await db()
      .insert(planComments)
      .values([
        ...Array.from({ length: 40 }, (_, i) => ({ id: `old${i}`, threadId: `old${i}`, planId: first.id, revision: 1, author: 'rita', body: 'x', createdAt: new Date(Date.now() - 3_600_000) })),
        ...Array.from({ length: 29 }, (_, i) => ({ id: `new${i}`, threadId: `new${i}`, planId: first.id, revision: 1, author: 'rita', body: 'x' })),
      ]);
    await createComment(db(), second.id, request({ body: 'the thirtieth', revision: 1 }), rita);
    const limited = await refusal(createComment(db(), second.id, request({ body: 'one more', revision: 1 }), rita));
    expect(limited.status).toBe(429);
    expect(limited.code).toBe('rate_limited');
    const wait = limited.extra?.retry_after_seconds as number;
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(limited.message).toBe(`You wrote 30 comments in the last minute, the most allowed; try again in ${wait} second${wait === 1 ? '' : 's'}`);
    // Others are not held back by rita's pace.
    expect((await createComment(db(), second.id, request({ body: 'mine', revision: 1 }), editor)).comment.author).toBe('eddie');
    expect((await listComments(db(), second.id)).threads.map((t) => t.comments[0].body)).toEqual(['the thirtieth', 'mine']);
  });

  it('keeps a decision\'s comment with the decision: no thread, no second inbox item, no comment webhook', async () => {
    const hook = await createWebhook(db(), CreateWebhookRequest.parse({ url: 'https://hooks.example/decisions', events: ['comment.created'] }), 'root');
    const created = await plan('Decided');
    const id = created.id;
    await submitForReview(db(), id, {}, editor);
    const decided = await decide(db(), id, 'changes_requested', { revision: 1, content_hash: created.content_hash, comment: '  Needs a word limit.  ' }, approver);
    expect(decided.review.comment).toBe('  Needs a word limit.  ');
    expect((await listComments(db(), id)).threads).toEqual([]);
    expect((await listPlanAudit(db(), id)).filter((row) => row.kind === 'comment_created')).toEqual([]);
    expect((await db().select().from(inboxItems).where(eq(inboxItems.planId, id))).map((row) => [row.recipient, row.kind])).toEqual([['eddie', 'decision']]);
    expect(await db().select().from(webhookDeliveries).where(and(eq(webhookDeliveries.webhookId, hook.id), eq(webhookDeliveries.planId, id)))).toEqual([]);
    // The banner shows the decision with its comment, and names no task.
    expect(await decisionNotice(db(), id, ['fetch', 'summarise'])).toMatchObject({ comment: '  Needs a word limit.  ', taskIds: [] });
  });
});
