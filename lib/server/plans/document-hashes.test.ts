import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlanDocument, contentHash } from '@/lib/plan';
import { bodyDigest } from '../audit/digests';
import { documentHashes, serverContentHash } from './document-hashes';

// The server's fast hashes must be exactly the documented ones, for any document.

const text = fc.string({ unit: 'binary', maxLength: 12 });
const arbitraryDocument = fc
  .record({
    tasks: fc.uniqueArray(fc.record({ task_id: fc.string({ minLength: 1, maxLength: 8 }), description: text, execution_type: fc.constantFrom('tool', 'l2_task', 'agent'), estimate_data: fc.jsonValue({ maxDepth: 2 }) }), {
      selector: (t) => t.task_id,
      maxLength: 6,
    }),
    goal: fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    positions: fc.dictionary(fc.string({ maxLength: 6 }), fc.record({ x: fc.integer(), y: fc.double({ noNaN: true, noDefaultInfinity: true }) }), { maxKeys: 3 }),
  })
  .map(({ tasks, goal, positions }) =>
    PlanDocument.parse({
      plan: { task_id: 'job', creation_time: '2026-01-01T00:00:00', update_time: '2026-01-01T00:00:00', planned_tasks: tasks.map((t) => ({ ...t, creation_time: '2026-01-01T00:00:00', last_update_time: '2026-01-01T00:00:00' })) },
      job: { job_goal: goal },
      view: { positions },
    }),
  );

describe('server document hashes', () => {
  it('equal contentHash and bodyDigest for any document', () => {
    fc.assert(
      fc.property(arbitraryDocument, (document) => {
        const { contentHash: hash, bodyHash } = documentHashes(document);
        expect(hash).toBe(contentHash(document));
        expect(serverContentHash(document)).toBe(hash);
        expect(bodyHash).toBe(bodyDigest(document));
      }),
      { numRuns: 200 },
    );
  });
});
