import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import type { TaskDataInput } from '@/lib/plan';
import { Registry, ToolResource } from '@/lib/registry';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { createPlan, getPlan, getRevisions, savePlan } from '../plans/plan-service';
import { deleteResource, putResource, replaceRegistry } from '../registry/registry-service';
import { principal, refusal } from '../platform/test-support';
import { getRegistry } from '../registry/registry-service';
import { decide, getApprovedPlan, getGate, submitForReview } from './approval-service';
import { registryNotice } from './registry-binding';

// What an approval binds: the plan document and the registry resources it routes to; what
// does not void it (moving nodes); who may never give it (service accounts, recent authors).

const who = principal;
const editor = who('eddie', 'editor');
const approver = who('alice', 'approver');
const approver2 = who('bob', 'approver');

const plan: TaskDataInput = {
  task_id: 'job-binding',
  planned_tasks: [
    { task_id: 'fetch', description: 'Fetch', execution_type: 'tool', tool_id: 'http_get', arguments: { url: 'https://example.org' } },
    { task_id: 'transform', description: 'Transform', execution_type: 'dsl', function_id: 'etl', dependencies: ['fetch'] },
  ],
};
const registry = {
  tools: [
    { id: 'http_get', description: 'GET a URL', input_schema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } },
    { id: 'unrelated', description: 'Nothing any plan here uses' },
  ],
  dsl_workflows: [{ id: 'etl', description: 'Extract, transform', steps: ['extract', 'transform'] }],
};

/**
 * RFC 8785 canonical JSON for the values a plan holds (strings, integers, booleans, null,
 * arrays, objects), written here rather than taken from the app so the test checks the
 * documented recipe, not the code under test.
 */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

describe.each(testDatabases())('what an approval binds, on $name', (database) => {
  const db = useTestDatabase(database);

  async function approved(title: string, required = approver) {
    const created = await createPlan(db(), CreatePlanRequest.parse({ title, plan }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    await decide(db(), created.id, 'approved', { revision: 1, content_hash: created.content_hash, comment: '' }, required);
    return created;
  }

  it('hands off the document and resources with hashes an executor can recompute on its own', async () => {
    await replaceRegistry(db(), Registry.parse(registry), 'admin');
    const { id, content_hash } = await approved('Verifiable');
    const handOff = await getApprovedPlan(db(), id);
    expect(handOff.content_hash).toBe(content_hash);
    // The README's recipe, hash version 2: each task hashed, then the plan over those hashes.
    expect(handOff.hash_version).toBe(2);
    const { plan, job, subgraphs } = handOff.document;
    const envelope = { hash_version: 2, job, plan: { ...plan, planned_tasks: plan.planned_tasks.map((task) => sha256(canonical(task))) }, subgraphs };
    expect(sha256(canonical(envelope))).toBe(handOff.content_hash);
    const { hash, ...resources } = handOff.resources;
    expect(sha256(canonical(resources))).toBe(hash);
    expect(resources.targets).toEqual(['dsl:etl', 'tool:http_get']);
    expect(resources.definitions.tools.map((t) => t.id)).toEqual(['http_get']);
    expect(resources.definitions.dsl_workflows.map((d) => d.id)).toEqual(['etl']);
    expect(handOff.approvals[0].resources_hash).toBe(hash);
  });

  it('makes the approval stale when a resource the plan routes to changes or disappears, and leaves other plans alone', async () => {
    await replaceRegistry(db(), Registry.parse(registry), 'admin');
    const edited = await approved('Tool schema rewritten');
    const removed = await approved('Workflow deleted');
    const untouched = await approved('Untouched');
    await putResource(db(), 'tools', 'unrelated', ToolResource.parse({ id: 'unrelated', description: 'Still nothing anyone uses' }), 'admin');
    for (const { id } of [edited, removed, untouched]) expect((await getApprovedPlan(db(), id)).revision).toBe(1);

    await putResource(db(), 'tools', 'http_get', ToolResource.parse({ ...registry.tools[0], input_schema: { type: 'object', properties: {} } }), 'mallory');
    const stale = await refusal(getApprovedPlan(db(), edited.id));
    expect([stale.status, stale.code, stale.extra?.reason]).toEqual([409, 'stale', 'registry_changed']);
    expect(stale.extra?.resources).toEqual([{ kind: 'tools', key: 'http_get', change: 'changed' }]);
    expect((await getPlan(db(), edited.id)).status).toBe('draft');
    expect(await registryNotice(db(), edited.id, await getRegistry(db()))).toMatchObject({ approvedRevision: 1, changes: [{ kind: 'tools', key: 'http_get', change: 'changed' }] });

    await deleteResource(db(), 'dsl_workflows', 'etl', 'mallory');
    const gone = await refusal(getApprovedPlan(db(), removed.id));
    expect(gone.extra).toMatchObject({ reason: 'registry_changed', resources: expect.arrayContaining([{ kind: 'dsl_workflows', key: 'etl', change: 'removed' }]) });
  });

  it('keeps the status and approvals through a layout-only save, and the hand-off keeps answering', async () => {
    await replaceRegistry(db(), Registry.parse(registry), 'admin');
    const { id, content_hash } = await approved('Moved nodes');
    const stored = (await getPlan(db(), id)).plan;
    const view = { positions: { fetch: { x: 300, y: 40 } } };
    const moved = await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 1, plan: stored, view }), editor.username);
    expect(moved).toEqual({ revision: 2, content_hash, layout_only: true });
    expect((await getPlan(db(), id)).status).toBe('approved');
    const handOff = await getApprovedPlan(db(), id);
    expect([handOff.revision, handOff.content_hash, handOff.approvals.length]).toEqual([2, content_hash, 1]);
    expect((await getRevisions(db(), id)).map((r) => r.layout_only)).toEqual([false, true]);

    const changed = await savePlan(db(), id, SavePlanRequest.parse({ base_revision: 2, plan: { ...plan, status: 'edited' } }), editor.username);
    expect(changed.layout_only).toBe(false);
    expect((await getPlan(db(), id)).status).toBe('draft');
    expect((await refusal(getApprovedPlan(db(), id))).code).toBe('stale');
  });

  it('refuses a decision on registry resources that changed since the reviewer loaded them', async () => {
    await replaceRegistry(db(), Registry.parse(registry), 'admin');
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Shown resources', plan }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    const shown = (await import('@/lib/approval/approved-resources')).resourcesHash({
      targets: ['dsl:etl', 'tool:http_get'],
      definitions: { agents: [], tools: [], functions: [], llms: [], dsl_workflows: [] },
    });
    const error = await refusal(decide(db(), created.id, 'approved', { revision: 1, content_hash: created.content_hash, comment: '', resources_hash: shown }, approver));
    expect([error.status, error.code, error.extra?.reason]).toEqual([409, 'stale', 'registry_changed']);
  });

  it('never lets a service account decide, whatever its role', async () => {
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Robots', plan }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    const robot = who('plangate-admin', 'admin', true);
    const error = await refusal(decide(db(), created.id, 'approved', { revision: 1, content_hash: created.content_hash, comment: '' }, robot));
    expect([error.status, error.extra?.reason]).toEqual([403, 'not_a_person']);
  });

  it('refuses the author after a partial approval was voided (N = 2)', async () => {
    const previous = process.env.PLANGATE_REQUIRED_APPROVALS;
    process.env.PLANGATE_REQUIRED_APPROVALS = '2';
    try {
      const author = who('carol', 'approver');
      const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Own work, twice', plan }), author.username);
      await submitForReview(db(), created.id, {}, editor);
      const claim = { revision: 1, content_hash: created.content_hash, comment: '' };
      await decide(db(), created.id, 'approved', claim, approver);
      await decide(db(), created.id, 'changes_requested', claim, approver2);
      await submitForReview(db(), created.id, {}, editor);
      const own = await refusal(decide(db(), created.id, 'approved', claim, author));
      expect([own.status, own.extra?.reason]).toEqual([403, 'four_eyes']);
    } finally {
      if (previous === undefined) delete process.env.PLANGATE_REQUIRED_APPROVALS;
      else process.env.PLANGATE_REQUIRED_APPROVALS = previous;
    }
  });

  it('refuses the author, and whoever changed a resource it routes to, after a registry change voided the approval', async () => {
    await replaceRegistry(db(), Registry.parse(registry), 'admin');
    const author = who('mallory', 'approver');
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Rewired by its author', plan }), author.username);
    await submitForReview(db(), created.id, {}, editor);
    const claim = { revision: 1, content_hash: created.content_hash, comment: '' };
    await decide(db(), created.id, 'approved', claim, approver);
    await putResource(db(), 'tools', 'http_get', ToolResource.parse({ ...registry.tools[0], description: 'Now something else' }), 'carol');
    await submitForReview(db(), created.id, {}, editor);
    const own = await refusal(decide(db(), created.id, 'approved', claim, author));
    expect([own.status, own.extra?.reason]).toEqual([403, 'four_eyes']);
    const rewirer = await refusal(decide(db(), created.id, 'approved', claim, who('carol', 'approver')));
    expect([rewirer.status, rewirer.message]).toEqual([403, 'You changed a registry resource this plan routes to since its last approval; someone else must approve revision 1.']);
    expect((await decide(db(), created.id, 'approved', claim, approver2)).status).toBe('approved');
    expect((await getApprovedPlan(db(), created.id)).approvals.map((a) => a.reviewer)).toEqual(['bob']);
  });

  it('never deadlocks a registry write against saves of the plans it voids', async () => {
    await replaceRegistry(db(), Registry.parse(registry), 'admin');
    const plans = await Promise.all([1, 2, 3].map((n) => approved(`Racing ${n}`)));
    for (let round = 0; round < 5; round++) {
      const heads = await Promise.all(plans.map(({ id }) => getPlan(db(), id)));
      const outcomes = await Promise.allSettled([
        putResource(db(), 'tools', 'http_get', ToolResource.parse({ ...registry.tools[0], description: `round ${round}` }), 'admin'),
        ...heads.map((head) => savePlan(db(), head.id, SavePlanRequest.parse({ base_revision: head.revision, plan: { ...plan, status: `round ${round}` } }), editor.username)),
      ]);
      expect(outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
    }
  });

  it('tells API approvers the resources hash to pin', async () => {
    await replaceRegistry(db(), Registry.parse(registry), 'admin');
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Pinned', plan }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    const gate = await getGate(db(), created.id);
    expect(gate.resources_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const decided = await decide(db(), created.id, 'approved', { revision: 1, content_hash: created.content_hash, comment: '', resources_hash: gate.resources_hash! }, approver);
    expect(decided.review.resources_hash).toBe(gate.resources_hash);
  });

  it('refuses to hand off a revision body edited in the database after approval', async () => {
    await replaceRegistry(db(), Registry.parse(registry), 'admin');
    const { id } = await approved('Tampered');
    // A task is stored once by its hash; editing its row is editing the approved revision.
    await db().execute(sql`update plan_tasks set body = jsonb_set(body, '{arguments,url}', '"https://evil.example"') where plan_id = ${id}`);
    const error = await refusal(getApprovedPlan(db(), id));
    expect([error.status, error.code]).toEqual([409, 'integrity']);

    const { id: other } = await approved('Tampered job');
    await db().execute(sql`update plan_revisions set body = jsonb_set(body, '{job,task_description}', '"Exfiltrate"') where plan_id = ${other}`);
    expect((await refusal(getApprovedPlan(db(), other))).code).toBe('integrity');

    const { id: dropped } = await approved('A task row deleted');
    await db().execute(sql`delete from plan_tasks where plan_id = ${dropped}`);
    expect((await refusal(getApprovedPlan(db(), dropped))).code).toBe('integrity');
  });
});
