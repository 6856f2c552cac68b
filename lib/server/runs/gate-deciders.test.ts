import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import type { TaskDataInput } from '@/lib/plan';
import { Registry } from '@/lib/registry';
import type { Role } from '@/lib/auth/roles';
import { decide, submitForReview } from '../approval/approval-service';
import type { Principal } from '../auth/principal';
import { createUser } from '../auth/users';
import type { DatabaseHandle } from '../platform/db/client';
import { inboxItems, runs, webhookDeliveries, webhooks } from '../platform/db/schema';
import { testDatabases } from '../platform/db/test-databases';
import { listInbox } from '../inbox/inbox-service';
import { createPlan, getPlan, savePlan } from '../plans/plan-service';
import { replaceRegistry } from '../registry/registry-service';
import { refusal } from '../platform/test-support';
import { startMcpTestServer, type McpTestServer } from '@/scripts/test-servers/mcp-server-test-support';
import { gateDeciders, gateRefusalFor } from './gate-deciders';
import { decideGate } from './run-control';
import { getRun } from './run-queries';
import { startRunWorkers, stopRunWorkers } from './run-workers';
import { startRun } from './start-run';
import { gatesWaitingFor } from './waiting-gates';

// Who decides a gate, and who hears that one waits, on real runs: the plan's four-eyes rule
// applied to the run (not its starter, not who wrote the revision it runs, no service
// account), accounts tied by creation to any of them (an admin's sock puppets) refused for
// plans and gates alike, and a waiting gate announced to exactly the people who may decide it.

// The test MCP server listens on loopback, which dispatch refuses unless the operator allows it.
process.env.PLANGATE_DISPATCH_ALLOW = [process.env.PLANGATE_DISPATCH_ALLOW, '127.0.0.1'].filter(Boolean).join(',');

let mcp: McpTestServer;
beforeAll(async () => {
  mcp = await startMcpTestServer();
});
afterAll(async () => {
  await mcp?.close();
});

const asPrincipal = (summary: { id: string; username: string; role: Role; service: boolean }): Principal => ({ ...summary, via: 'session' });

/** One gated task, nothing before it: its gate opens as soon as the run starts. */
const oneGate = (tag: string): TaskDataInput => ({
  task_id: `job-${tag}`,
  planned_tasks: [{ task_id: 'g', description: 'Add once approved', execution_type: 'tool', tool_id: 'add', arguments: { a: 1, b: 2 }, parameters: { requires_approval: true } }],
});

describe.each(testDatabases())('who decides a gate, on $name', (database) => {
  let handle: DatabaseHandle;
  const people = new Map<string, Principal>();
  const person = (name: string) => people.get(name)!;

  /** Creates `user` as `creator` would (the account records who made it). */
  async function account(username: string, role: Role, creator: string, service = false) {
    const created = await createUser(handle.db, { username, role, service, password: service ? null : `${username}-password` }, creator);
    people.set(username, asPrincipal(created));
  }

  /** A plan `author` writes and submits, approved by `approver`. */
  async function approvedPlan(title: string, plan: TaskDataInput, author: string, approver: string) {
    const created = await createPlan(handle.db, CreatePlanRequest.parse({ title, plan }), author);
    await submitForReview(handle.db, created.id, {}, person(author));
    await decide(handle.db, created.id, 'approved', { revision: created.revision, content_hash: created.content_hash, comment: '' }, person(approver));
    return created;
  }

  async function runOf(plan: { id: string; revision: number; content_hash: string }, starter: string) {
    const { run_id } = await startRun(handle, person(starter), plan.id, { revision: plan.revision, content_hash: plan.content_hash });
    return run_id;
  }

  async function runRow(runId: string) {
    const [row] = await handle.db.select().from(runs).where(eq(runs.id, runId));
    return row;
  }

  async function gatesOpen(runId: string, taskIds: string[]) {
    await expect
      .poll(async () => (await getRun(handle.db, runId)).tasks.filter((t) => t.state === 'awaiting_approval').map((t) => t.task_id).sort(), { timeout: 30_000, interval: 100 })
      .toEqual([...taskIds].sort());
  }

  beforeAll(async () => {
    handle = await database.open();
    await startRunWorkers(handle, { resultUrl: (run, task) => `http://127.0.0.1:9/api/runs/${run}/tasks/${task}/result`, concurrency: 4 });
    await replaceRegistry(handle.db, Registry.parse({ tools: [{ id: 'add', description: 'Adds', endpoint: { protocol: 'mcp', url: mcp.url } }] }), 'registrar');
    // The CLI made the first accounts; admins made the rest (see each test for who made whom).
    for (const [name, role] of [
      ['alice', 'approver'],
      ['bob', 'approver'],
      ['arthur', 'approver'],
      ['stella', 'admin'],
      ['root', 'admin'],
      ['vera', 'viewer'],
    ] as const) {
      await account(name, role, 'cli');
    }
    await account('robot', 'admin', 'cli', true);
    await account('sid', 'approver', 'stella');
    await account('puppet', 'approver', 'root');
    // A puppet's puppet: root made an admin, who made an approver.
    await account('root2', 'admin', 'root');
    await account('puppet2', 'approver', 'root2');
    // A scratch database, its migrations and eleven password hashes: slow on a busy machine.
  }, 180_000);
  afterAll(async () => {
    await stopRunWorkers(handle);
    await handle.close();
  });

  it('refuses the starter, an author of the revision it runs and a service account; another approver decides', async () => {
    const plan = await approvedPlan('Author and starter', oneGate('a'), 'arthur', 'alice');
    const runId = await runOf(plan, 'stella');
    await gatesOpen(runId, ['g']);

    const starter = await refusal(decideGate(handle, person('stella'), runId, 'g', 'approve'));
    expect(starter.status).toBe(403);
    expect(starter.message).toBe('stella started this run, so another approver must decide its gates (four-eyes)');
    // The author wrote what runs: approving its gates would be approving their own work.
    const author = await refusal(decideGate(handle, person('arthur'), runId, 'g', 'approve'));
    expect(author.status).toBe(403);
    expect(author.message).toContain('arthur wrote the revision this run runs');
    const robot = await refusal(decideGate(handle, person('robot'), runId, 'g', 'approve'));
    expect(robot.status).toBe(403);
    expect(robot.message).toContain('robot is a service account');
    expect((await refusal(decideGate(handle, person('vera'), runId, 'g', 'reject'))).message).toBe('An approver decides this gate. vera has the viewer role');
    // A rejection is a decision too: the excluded make none.
    expect((await refusal(decideGate(handle, person('arthur'), runId, 'g', 'reject'))).status).toBe(403);
    // Nothing changed: the gate still waits for someone allowed.
    expect((await getRun(handle.db, runId)).tasks[0]).toMatchObject({ state: 'awaiting_approval', gate_decided_by: null });

    // Who drafts the plan after the run started did not shape what it runs, and may decide.
    const head = await getPlan(handle.db, plan.id);
    await savePlan(handle.db, plan.id, SavePlanRequest.parse({ base_revision: head.revision, plan: { ...head.plan, planned_tasks: head.plan.planned_tasks.map((t) => ({ ...t, description: 'Later draft' })) }, message: 'draft' }), 'bob');
    expect(await gateRefusalFor(handle.db, runId, person('bob'))).toBeNull();
    await decideGate(handle, person('bob'), runId, 'g', 'approve');
    await expect.poll(async () => (await getRun(handle.db, runId)).state, { timeout: 30_000, interval: 100 }).toBe('succeeded');
    expect((await getRun(handle.db, runId)).tasks[0].gate_decided_by).toBe('bob');
  }, 60_000);

  it("refuses an admin's sock puppets on the admin's plans and gates, and the admin on their puppet's", async () => {
    // root writes a plan; the accounts root made (directly or through root2) may not approve it.
    const created = await createPlan(handle.db, CreatePlanRequest.parse({ title: 'Root plan', plan: oneGate('r') }), 'root');
    await submitForReview(handle.db, created.id, {}, person('root'));
    const claim = { revision: created.revision, content_hash: created.content_hash, comment: '' };
    const puppet = await refusal(decide(handle.db, created.id, 'approved', claim, person('puppet')));
    expect(puppet.status).toBe(403);
    expect(puppet.extra).toMatchObject({ reason: 'four_eyes' });
    expect(puppet.message).toContain('Your account was created by root, who shaped this revision');
    expect((await refusal(decide(handle.db, created.id, 'approved', claim, person('puppet2')))).message).toContain('created by an account root created');
    expect((await getPlan(handle.db, created.id)).status).toBe('in_review');
    await decide(handle.db, created.id, 'approved', claim, person('bob'));

    // Its run, started by stella: neither root's puppets nor stella's decide its gate.
    const runId = await runOf(created, 'stella');
    await gatesOpen(runId, ['g']);
    expect((await refusal(decideGate(handle, person('puppet'), runId, 'g', 'approve'))).message).toContain('puppet counts as root, who shaped the revision it runs');
    expect((await refusal(decideGate(handle, person('puppet2'), runId, 'g', 'approve'))).status).toBe(403);
    expect((await refusal(decideGate(handle, person('sid'), runId, 'g', 'approve'))).message).toContain('sid counts as stella, who started this run');
    expect(await gateDeciders(handle.db, (await runRow(runId))!)).toEqual(['alice', 'arthur', 'bob']);

    // The other way round: root may not approve what root's account wrote.
    const theirs = await createPlan(handle.db, CreatePlanRequest.parse({ title: 'Puppet plan', plan: oneGate('p') }), 'puppet');
    await submitForReview(handle.db, theirs.id, {}, person('puppet'));
    const admin = await refusal(decide(handle.db, theirs.id, 'approved', { revision: theirs.revision, content_hash: theirs.content_hash, comment: '' }, person('root')));
    expect(admin.status).toBe(403);
    expect(admin.message).toContain('You created the account of puppet');
    await decide(handle.db, theirs.id, 'approved', { revision: theirs.revision, content_hash: theirs.content_hash, comment: '' }, person('alice'));
    const puppetRun = await runOf(theirs, 'stella');
    await gatesOpen(puppetRun, ['g']);
    expect((await refusal(decideGate(handle, person('root'), puppetRun, 'g', 'approve'))).message).toContain('root counts as puppet');
  }, 60_000);

  it('tells every person who may decide a gate, each gate as it opens, in the inbox, on /reviews and by webhook', async () => {
    // A subscriber to run.awaiting_approval (written straight to the table: the emission is under test, not the URL rules).
    await handle.db.insert(webhooks).values({ id: 'gate-hook', url: 'https://hooks.example.com/gates', events: ['run.awaiting_approval'], secret: 'whsec_test', createdBy: 'root' });
    const twoGates: TaskDataInput = {
      task_id: 'job-two',
      planned_tasks: [
        { task_id: 'g1', description: 'First gate', execution_type: 'tool', tool_id: 'add', arguments: { a: 1, b: 1 }, parameters: { requires_approval: true } },
        { task_id: 'g2', description: 'Second gate', execution_type: 'tool', tool_id: 'add', arguments: { a: 2, b: 2 }, parameters: { requires_approval: true } },
      ],
    };
    const plan = await approvedPlan('Two gates', twoGates, 'arthur', 'alice');
    const runId = await runOf(plan, 'stella');
    await gatesOpen(runId, ['g1', 'g2']);

    const deciders = ['alice', 'bob', 'puppet', 'puppet2', 'root', 'root2'];
    expect(await gateDeciders(handle.db, (await runRow(runId))!)).toEqual(deciders);
    // One item per gate for each of them, none for the starter, the author, sid (stella's), the service account or a viewer.
    const items = await handle.db.select().from(inboxItems).where(eq(inboxItems.runId, runId));
    const gateItems = items.filter((item) => item.kind === 'gate');
    expect(gateItems.map((item) => `${item.recipient}:${item.taskId}`).sort()).toEqual(deciders.flatMap((name) => [`${name}:g1`, `${name}:g2`]).sort());
    expect(items.filter((item) => ['stella', 'arthur', 'sid', 'robot', 'vera'].includes(item.recipient) && item.kind === 'gate')).toEqual([]);
    const inbox = await listInbox(handle.db, 'bob', { limit: 100 });
    expect(inbox.items.find((item) => item.run_id === runId && item.task_id === 'g2')).toMatchObject({ kind: 'gate', plan_id: plan.id, summary: expect.stringContaining('waits at its gate for your decision') });

    // The webhook names the run and the task that opened, once per gate.
    const bodies = (await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, 'gate-hook'))).map((row) => JSON.parse(row.body));
    const forRun = bodies.filter((body) => body.detail.run_id === runId);
    expect(forRun.map((body) => body.event)).toEqual(['run.awaiting_approval', 'run.awaiting_approval']);
    expect(forRun.flatMap((body) => body.detail.task_ids).sort()).toEqual(['g1', 'g2']);
    expect(forRun[0].detail).toMatchObject({ revision: plan.revision, content_hash: plan.content_hash, started_by: 'stella' });

    // /reviews: the gates bob may decide, linked by run; none for those who may not.
    const bobs = await gatesWaitingFor(handle.db, person('bob'));
    expect(bobs.filter((gate) => gate.runId === runId).map((gate) => gate.taskId).sort()).toEqual(['g1', 'g2']);
    expect(bobs.find((gate) => gate.runId === runId)).toMatchObject({ planId: plan.id, planTitle: 'Two gates', startedBy: 'stella', revision: plan.revision });
    for (const excluded of ['stella', 'arthur', 'sid', 'robot', 'vera']) {
      expect((await gatesWaitingFor(handle.db, person(excluded))).filter((gate) => gate.runId === runId), excluded).toEqual([]);
    }
    // Decided, a gate leaves the list.
    await decideGate(handle, person('bob'), runId, 'g1', 'reject', 'not this one');
    expect((await gatesWaitingFor(handle.db, person('alice'))).filter((gate) => gate.runId === runId).map((gate) => gate.taskId)).toEqual(['g2']);
  }, 60_000);
});
