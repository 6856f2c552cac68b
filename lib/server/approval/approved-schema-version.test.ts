import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CreatePlanRequest } from '@/lib/api/schemas';
import { CURRENT_SCHEMA_VERSION } from '@/lib/plan';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { createPlan } from '../plans/plan-service';
import { principal, refusal } from '../platform/test-support';
import { decide, getApprovedPlan, submitForReview } from './approval-service';

// The hand-off reads the approved revision through the document migrations: a body this
// code cannot read (written by a newer release) is refused as an integrity problem, never
// handed over unverified.

const editor = principal('eddie', 'editor');
const approver = principal('alice', 'approver');

describe.each(testDatabases())('hand-off and schema versions on $name', (database) => {
  const db = useTestDatabase(database);

  it('hands off a revision written under the current schema version, and refuses one written by newer code', async () => {
    const plan = { task_id: 'job-v', planned_tasks: [{ task_id: 'a', description: 'A', execution_type: 'llm', function_id: 'gpt' }] };
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Versioned', plan }), editor.username);
    await submitForReview(db(), created.id, {}, editor);
    await decide(db(), created.id, 'approved', { revision: 1, content_hash: created.content_hash, comment: '' }, approver);
    expect((await getApprovedPlan(db(), created.id)).content_hash).toBe(created.content_hash);

    await db().execute(sql`update plan_revisions set schema_version = ${CURRENT_SCHEMA_VERSION + 1} where plan_id = ${created.id}`);
    const error = await refusal(getApprovedPlan(db(), created.id));
    expect([error.status, error.code]).toEqual([409, 'integrity']);
    expect(error.message).toContain(`written under schema version ${CURRENT_SCHEMA_VERSION + 1}, newer than this code's`);
  });
});
