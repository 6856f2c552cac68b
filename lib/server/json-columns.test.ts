import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CreatePlanRequest } from '@/lib/api/schemas';
import { Registry } from '@/lib/registry';
import { decide, getGate, submitForReview } from './approval/approval-service';
import { newPlanId } from './plans/plan-id';
import { createPlan } from './plans/plan-service';
import { getRegistry, replaceRegistry } from './registry/registry-service';
import { getReplanProposal } from './replan/replan-service';
import { latestDryRun, runDryRun } from './simulate/dry-run-service';
import { principal, refusal } from './platform/test-support';
import { replanProposals } from './platform/db/schema';
import { testDatabases, useTestDatabase } from './platform/db/test-databases';

// jsonb columns are read through their zod schema: a row edited into a shape the code does
// not know is refused as an integrity error naming the table and the row, not a crash.

const editor = principal('eddie', 'editor');
const approver = principal('alice', 'approver');
const plan = { task_id: 'job', planned_tasks: [{ task_id: 'a', description: 'A', execution_type: 'tool', tool_id: 'http_get' }] };

describe.each(testDatabases())('jsonb columns read with their schema on $name', (database) => {
  const db = useTestDatabase(database);
  const created = () => createPlan(db(), CreatePlanRequest.parse({ title: 'Columns', plan }), editor.username);

  it('refuses a stored dry run whose result lost its shape, naming the row', async () => {
    const { id } = await created();
    const run = await runDryRun(db(), id, { workers: 2 }, editor);
    expect((await latestDryRun(db(), id, 1))?.result.makespan_ms).toBe(run.result.makespan_ms);
    await db().execute(sql`update dry_runs set result = result - 'makespan_ms' where id = ${run.id}`);
    const error = await refusal(latestDryRun(db(), id, 1));
    expect(error.code).toBe('integrity');
    expect(error.message).toContain(`dry_runs row ${run.id}: the stored result does not match its schema (result.makespan_ms:`);
  });

  it('refuses a replan proposal whose body lost its shape, naming the row', async () => {
    const { id, content_hash } = await created();
    const proposalId = newPlanId();
    await db().insert(replanProposals).values({ id: proposalId, planId: id, revision: 1, contentHash: content_hash, body: { replacements: 'none' }, createdBy: editor.username });
    const error = await refusal(getReplanProposal(db(), id, proposalId));
    expect(error.code).toBe('integrity');
    expect(error.message).toContain(`replan_proposals row ${proposalId}`);
  });

  it('refuses a review whose stored validation lost its shape, naming the row', async () => {
    const { id, content_hash } = await created();
    await submitForReview(db(), id, {}, editor);
    const decided = await decide(db(), id, 'changes_requested', { revision: 1, content_hash, comment: 'Not yet' }, approver);
    await db().execute(sql`update plan_reviews set validation = '{"valid": "yes"}'::jsonb where id = ${decided.review.id}`);
    const error = await refusal(getGate(db(), id));
    expect(error.code).toBe('integrity');
    expect(error.message).toContain(`plan_reviews row ${decided.review.id}`);
  });
  // Last: it leaves the registry unreadable, which every other service here reads.
  it('refuses a registry resource row that no longer matches its schema, naming it', async () => {
    await replaceRegistry(db(), Registry.parse({ tools: [{ id: 'http_get', description: 'GET a URL' }] }), 'admin');
    expect((await getRegistry(db())).tools.map((t) => t.id)).toEqual(['http_get']);
    await db().execute(sql`update registry_resources set body = '{"id": 7}'::jsonb where kind = 'tools' and key = 'http_get'`);
    const error = await refusal(getRegistry(db()));
    expect([error.status, error.code]).toEqual([409, 'integrity']);
    expect(error.message).toContain('registry_resources row tools/http_get');
  });
});
