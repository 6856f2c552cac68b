import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { completeDocument } from './document-defaults';
import { PlanDocumentInput, PlannerTaskInput, StoredPlanDocument, TaskDataInput } from './schema';
import { contentHash } from './hash';

const fixed = (ids: string[]) => ({ now: '2026-01-02T03:04:05.123000', newId: () => ids.shift() ?? 'out-of-ids' });

describe('completeDocument', () => {
  it('fills missing ids and timestamps once, from the caller, and keeps those that were sent', () => {
    const input = PlanDocumentInput.parse({
      plan: { planned_tasks: [{ description: 'new' }, { task_id: 'kept', creation_time: '2025-05-05T05:05:05' }] },
    });
    const doc = completeDocument(input, fixed(['plan-1', 't1']));
    expect(doc.plan.planned_tasks.map((t) => [t.task_id, t.creation_time, t.last_update_time])).toEqual([
      ['t1', '2026-01-02T03:04:05.123000', '2026-01-02T03:04:05.123000'],
      ['kept', '2025-05-05T05:05:05', '2026-01-02T03:04:05.123000'],
    ]);
    expect(doc.plan.task_id).toBe('plan-1');
    expect(doc.plan.update_time).toBe('2026-01-02T03:04:05.123000');
    expect(StoredPlanDocument.parse(doc)).toEqual(doc);
  });

  it('gives the same document and hash for the same input, clock and ids', () => {
    const input = PlanDocumentInput.parse({ plan: { planned_tasks: [{}, {}] } });
    const a = completeDocument(input, fixed(['x', 'y', 'p']));
    const b = completeDocument(input, fixed(['x', 'y', 'p']));
    expect(contentHash(a)).toBe(contentHash(b));
  });
});

describe('the stored and input schemas', () => {
  it('the stored schema mints nothing: a body without ids or timestamps is refused, not completed', () => {
    const result = StoredPlanDocument.safeParse({ plan: { planned_tasks: [] }, job: {}, subgraphs: [], view: {} });
    expect(result.success).toBe(false);
  });

  it('the input schema leaves an absent id or timestamp absent', () => {
    expect(PlannerTaskInput.parse({}).task_id).toBeUndefined();
    expect(TaskDataInput.parse({}).creation_time).toBeUndefined();
  });

  it('the input schema advertises no generated default (a client filling defaults gets no shared id)', () => {
    const json = JSON.stringify(z.toJSONSchema(PlanDocumentInput, { io: 'input' }));
    expect(json).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(json).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });
});
