import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CURRENT_SCHEMA_VERSION, StoredPlanDocument, documentSchema, type DocumentSchemaRegistry } from '@/lib/plan';
import { CreatePlanRequest } from '@/lib/api/schemas';
import { testDatabases, useTestDatabase } from '../platform/db/test-databases';
import { AppError } from '../platform/errors';
import { createPlan, getPlan } from './plan-service';
import { findRevision, readRevision } from './plan-repository';

// The acceptance test of issue 15 item 3: a test-only schema change (task `description`
// renamed to `summary`, and required to be non-empty) plus its migration, injected as a
// registry, so the application's own registry is never changed.
const NextTask = StoredPlanDocument.shape.plan.shape.planned_tasks.element.omit({ description: true }).extend({ summary: z.string().min(1) });
const NextDocument = StoredPlanDocument.extend({
  plan: StoredPlanDocument.shape.plan.extend({ planned_tasks: z.array(NextTask) }),
});
type NextDocument = z.infer<typeof NextDocument>;

const renameDescription = {
  from: CURRENT_SCHEMA_VERSION,
  to: CURRENT_SCHEMA_VERSION + 1,
  up(doc: unknown) {
    const body = doc as { plan: { planned_tasks: Array<Record<string, unknown>> } };
    return {
      ...body,
      plan: {
        ...body.plan,
        planned_tasks: body.plan.planned_tasks.map(({ description, ...task }) => ({ ...task, summary: description || '(none)' })),
      },
    };
  },
};
const nextSchema: DocumentSchemaRegistry<NextDocument> = {
  currentVersion: CURRENT_SCHEMA_VERSION + 1,
  migrations: [...documentSchema.migrations, renameDescription],
  schema: NextDocument,
};

describe.each(testDatabases())('stored revisions under a changed schema on $name', (database) => {
  const db = useTestDatabase(database);
  const plan = { task_id: 'job', planned_tasks: [{ task_id: 'a', description: 'Fetch' }, { task_id: 'b', description: '' }] };

  it('a revision stored under the current schema is readable after a test-only schema change plus its migration', async () => {
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Old', plan }), 'tester');
    const row = await findRevision(db(), created.id, 1);
    expect(row?.schemaVersion).toBe(CURRENT_SCHEMA_VERSION);

    // The tightened schema alone refuses the body as written; through the migration it reads.
    expect(NextDocument.safeParse(row?.body).success).toBe(false);
    const read = await readRevision(db(), created.id, 1, nextSchema);
    expect(read?.document.plan.planned_tasks.map((t) => [t.task_id, t.summary])).toEqual([
      ['a', 'Fetch'],
      ['b', '(none)'],
    ]);
    // Reading never rewrites the immutable row: the body and its hash stay as written.
    expect(read?.body).toEqual(row?.body);
    expect(read?.contentHash).toBe(created.content_hash);
    expect((await getPlan(db(), created.id)).plan.planned_tasks[0].description).toBe('Fetch');
  });

  it('refuses, as an integrity error naming the row, a revision the code cannot migrate', async () => {
    const created = await createPlan(db(), CreatePlanRequest.parse({ title: 'Stuck', plan }), 'tester');
    const noStep = { ...nextSchema, migrations: [] };
    const error = await readRevision(db(), created.id, 1, noStep).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('integrity');
    expect((error as AppError).message).toContain(`plan_revisions row (plan "${created.id}", revision 1`);
    expect((error as AppError).message).toContain(`no migration from schema version ${CURRENT_SCHEMA_VERSION}`);
  });
});
