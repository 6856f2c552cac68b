import { describe, expect, it } from 'vitest';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { decide, submitForReview } from '../approval/approval-service';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { createPlan, getPlan, savePlan } from '../plans/plan-service';
import { FETCH_THEN_SUMMARISE, principal, refusal } from '../platform/test-support';
import { MAX_TABS_PER_USER, PRESENCE_STALE_MS, countPresence, heartbeat, leave } from './presence-service';

const editor = principal('eddie', 'editor');
const approver = principal('alice', 'approver');
const T = new Date('2026-03-01T12:00:00Z');
const later = (ms: number) => new Date(T.getTime() + ms);
const tab = (n: number) => `tab-${String(n).padStart(6, '0')}`;

describe.each(testDatabases())('presence on $name', (database) => {
  const db = useTestDatabase(database);

  async function newPlan() {
    return createPlan(db(), CreatePlanRequest.parse({ title: 'Live', plan: FETCH_THEN_SUMMARISE }), editor.username);
  }

  it('tells each tab who else has the plan open, at which revision and whether they have unsaved edits', async () => {
    const plan = await newPlan();
    await heartbeat(db(), plan.id, 'alice', { session_id: tab(1), revision: 1, dirty: false }, T);
    const state = await heartbeat(db(), plan.id, 'eddie', { session_id: tab(2), revision: 1, dirty: true }, later(1000));
    expect(state.present).toEqual([{ username: 'alice', revision: 1, dirty: false, self: false }]);
    const seenByAlice = await heartbeat(db(), plan.id, 'alice', { session_id: tab(1), revision: 1, dirty: false }, later(2000));
    expect(seenByAlice.present).toEqual([{ username: 'eddie', revision: 1, dirty: true, self: false }]);
  });

  it('forgets a tab that stopped beating, and deletes its row', async () => {
    const plan = await newPlan();
    await heartbeat(db(), plan.id, 'alice', { session_id: tab(3), revision: 1, dirty: false }, T);
    const state = await heartbeat(db(), plan.id, 'eddie', { session_id: tab(4), revision: 1, dirty: false }, later(PRESENCE_STALE_MS + 1));
    expect(state.present).toEqual([]);
    expect(await countPresence(db(), plan.id)).toBe(1);
  });

  it('forgets a tab that left at once', async () => {
    const plan = await newPlan();
    await heartbeat(db(), plan.id, 'alice', { session_id: tab(5), revision: 1, dirty: false }, T);
    await leave(db(), plan.id, 'alice', tab(5));
    expect((await heartbeat(db(), plan.id, 'eddie', { session_id: tab(6), revision: 1, dirty: false }, T)).present).toEqual([]);
  });

  it('lists a user’s other tab as theirs, and never lets another user take over a tab', async () => {
    const plan = await newPlan();
    await heartbeat(db(), plan.id, 'eddie', { session_id: tab(7), revision: 1, dirty: false }, T);
    expect((await heartbeat(db(), plan.id, 'eddie', { session_id: tab(8), revision: 1, dirty: false }, T)).present).toEqual([
      { username: 'eddie', revision: 1, dirty: false, self: true },
    ]);
    const error = await refusal(heartbeat(db(), plan.id, 'mallory', { session_id: tab(7), revision: 1, dirty: true }, T));
    expect(error.code).toBe('conflict');
    expect((await heartbeat(db(), plan.id, 'alice', { session_id: tab(9), revision: 1, dirty: false }, T)).present).toContainEqual({
      username: 'eddie',
      revision: 1,
      dirty: false,
      self: false,
    });
  });

  it('counts at most a bounded number of tabs per user', async () => {
    const plan = await newPlan();
    for (let i = 0; i < MAX_TABS_PER_USER + 5; i++) await heartbeat(db(), plan.id, 'eddie', { session_id: tab(100 + i), revision: 1, dirty: false }, T);
    expect(await countPresence(db(), plan.id)).toBe(MAX_TABS_PER_USER);
  });

  it('holds the per-user cap when many new tabs beat at once', async () => {
    const plan = await newPlan();
    await Promise.all(
      Array.from({ length: MAX_TABS_PER_USER + 5 }, (_, i) => heartbeat(db(), plan.id, 'eddie', { session_id: tab(200 + i), revision: 1, dirty: false }, T)),
    );
    expect(await countPresence(db(), plan.id)).toBe(MAX_TABS_PER_USER);
  });

  it('deletes only its own plan’s stale tabs on a beat, and every plan’s on the occasional sweep', async () => {
    const quiet = await newPlan();
    const busy = await newPlan();
    await heartbeat(db(), quiet.id, 'alice', { session_id: tab(300), revision: 1, dirty: false }, T);
    await heartbeat(db(), busy.id, 'alice', { session_id: tab(301), revision: 1, dirty: false }, T);
    await heartbeat(db(), busy.id, 'eddie', { session_id: tab(302), revision: 1, dirty: false }, later(PRESENCE_STALE_MS + 1), false);
    expect(await countPresence(db(), busy.id)).toBe(1);
    expect(await countPresence(db(), quiet.id)).toBe(1);
    await heartbeat(db(), busy.id, 'eddie', { session_id: tab(302), revision: 1, dirty: false }, later(PRESENCE_STALE_MS + 2), true);
    expect(await countPresence(db(), quiet.id)).toBe(0);
  });

  it('refuses a revision newer than the head, recording nothing', async () => {
    const plan = await newPlan();
    const error = await refusal(heartbeat(db(), plan.id, 'eddie', { session_id: tab(400), revision: 2, dirty: false }, T));
    expect(error.code).toBe('bad_request');
    expect(error.message).toContain('the head is 1');
    expect(await countPresence(db(), plan.id)).toBe(0);
  });

  it('reports the head revision, its author and the latest gate events, newest first', async () => {
    const plan = await newPlan();
    const head = await getPlan(db(), plan.id);
    const saved = await savePlan(db(), plan.id, SavePlanRequest.parse({ base_revision: 1, plan: { ...head.plan, status: 'edited' } }), 'bob');
    await submitForReview(db(), plan.id, {}, editor);
    await decide(db(), plan.id, 'approved', { revision: saved.revision, content_hash: saved.content_hash, comment: '' }, approver);
    const state = await heartbeat(db(), plan.id, 'eddie', { session_id: tab(10), revision: 1, dirty: true }, new Date());
    expect(state.head).toMatchObject({ revision: 2, status: 'approved', author: 'bob' });
    expect(state.activity.map((a) => [a.kind, a.actor, a.revision])).toEqual([
      ['approved', 'alice', 2],
      ['submitted', 'eddie', 2],
      ['revised', 'bob', 2],
      ['created', 'eddie', 1],
    ]);
  });

  it('refuses an unknown plan and a malformed session id, recording nothing', async () => {
    expect((await refusal(heartbeat(db(), 'p_missing', 'eddie', { session_id: tab(11), revision: 1, dirty: false }))).code).toBe('not_found');
    const plan = await newPlan();
    const before = await countPresence(db());
    expect((await refusal(heartbeat(db(), plan.id, 'eddie', { session_id: 'x', revision: 1, dirty: false }))).message).toMatch(/session_id/);
    expect(await countPresence(db())).toBe(before);
  });
});
