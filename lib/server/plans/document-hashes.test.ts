import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlanDocument, contentHash, hashEnvelope, taskHash } from '@/lib/plan';
import { bodyDigest, canonicalJson } from '../audit/digests';
import { canonicalView, documentHashes, hashesFromTaskHashes, revisionBodyDigest, serverContentHash } from './document-hashes';

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
  it('write any view exactly as the generic canonicaliser does', () => {
    const number = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constantFrom(-0, 1e21, 1e-7, 0.1 + 0.2));
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), fc.record({ x: number, y: number }), { maxKeys: 20 }),
        fc.array(fc.string({ unit: 'binary', maxLength: 6 }), { maxLength: 4 }),
        (positions, collapsed) => {
          const view = { positions, collapsed };
          expect(canonicalView(view)).toBe(canonicalJson(view));
        },
      ),
      { numRuns: 500 },
    );
    // Audit verify hashes stored bodies unparsed: a hand-edited view must hash as it is.
    for (const view of [
      { positions: { a: { x: 1, y: 2, note: 'added by hand' } }, collapsed: [] },
      { positions: { a: { x: 1, y: '2' } }, collapsed: [] },
      { positions: { a: null }, collapsed: [] },
      { positions: {}, collapsed: [], extra: true },
      { positions: {}, other: [] },
      { positions: { a: { x: 1, y: 2 } } },
    ]) {
      expect(canonicalView(view as never)).toBe(canonicalJson(view));
    }
  });

  it('equal contentHash (both versions) and the body digests for any document', () => {
    fc.assert(
      fc.property(arbitraryDocument, (document) => {
        const { contentHash: hash, bodyHash, taskHashes } = documentHashes(document);
        expect(hash).toBe(contentHash(document));
        expect(taskHashes).toEqual(document.plan.planned_tasks.map(taskHash));
        expect(serverContentHash(document, 2)).toBe(hash);
        expect(serverContentHash(document, 1)).toBe(contentHash(document, 1));
        expect(bodyHash).toBe(bodyDigest({ ...hashEnvelope(document, taskHashes), view: document.view }));
        expect(revisionBodyDigest(document, 2)).toBe(bodyHash);
        expect(revisionBodyDigest(document, 1)).toBe(bodyDigest(document));
      }),
      { numRuns: 200 },
    );
  });

  it('from known task hashes, equal the hashes of the whole document', () => {
    fc.assert(
      fc.property(arbitraryDocument, (document) => {
        const known = document.plan.planned_tasks.map(taskHash);
        expect(hashesFromTaskHashes(document, known)).toEqual(documentHashes(document));
      }),
      { numRuns: 100 },
    );
  });
});
