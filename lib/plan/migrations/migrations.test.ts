import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CURRENT_SCHEMA_VERSION, DocumentMigrationError, documentSchema, migrateDocument, readStoredDocument, type DocumentMigration } from './index';

const step = (from: number, field: string): DocumentMigration => ({
  from,
  to: from + 1,
  up: (doc) => ({ ...(doc as object), [field]: ((doc as { steps?: number[] }).steps ?? []).length }),
});
const append = (from: number): DocumentMigration => ({
  from,
  to: from + 1,
  up: (doc) => ({ steps: [...((doc as { steps: number[] }).steps ?? []), from] }),
});

describe('migrateDocument', () => {
  it('leaves a document written under the current version as it is', () => {
    const doc = { plan: {} };
    expect(migrateDocument(doc, CURRENT_SCHEMA_VERSION)).toBe(doc);
    expect(documentSchema.currentVersion).toBe(CURRENT_SCHEMA_VERSION);
  });

  it('runs the steps from the stored version up to the current one, in version order', () => {
    // Registered out of order: the chain follows `from`, not the array's order.
    const registry = { currentVersion: 4, migrations: [append(3), append(1), append(2)] };
    expect(migrateDocument({ steps: [] }, 1, registry)).toEqual({ steps: [1, 2, 3] });
    expect(migrateDocument({ steps: [] }, 3, registry)).toEqual({ steps: [3] });
  });

  it('refuses a chain with a missing step, naming it', () => {
    const registry = { currentVersion: 3, migrations: [step(1, 'a')] };
    expect(() => migrateDocument({}, 1, registry)).toThrow(DocumentMigrationError);
    expect(() => migrateDocument({}, 1, registry)).toThrow('no migration from schema version 2 to 3');
  });

  it('refuses a document written by newer code', () => {
    expect(() => migrateDocument({}, CURRENT_SCHEMA_VERSION + 1)).toThrow(
      `written under schema version ${CURRENT_SCHEMA_VERSION + 1}, newer than this code's ${CURRENT_SCHEMA_VERSION}`,
    );
  });

  it('refuses a version that is not a positive integer, and steps that skip or repeat a version', () => {
    expect(() => migrateDocument({}, 0)).toThrow('schema version 0 is not a positive integer');
    expect(() => migrateDocument({}, 1, { currentVersion: 3, migrations: [{ from: 1, to: 3, up: (d) => d }] })).toThrow(
      'must go up one version; found 1 -> 3',
    );
    expect(() => migrateDocument({}, 1, { currentVersion: 2, migrations: [append(1), append(1)] })).toThrow('two migrations start at version 1');
  });
});

describe('readStoredDocument', () => {
  const registry = {
    currentVersion: 2,
    migrations: [{ from: 1, to: 2, up: (doc: unknown) => ({ name: (doc as { title: string }).title }) }],
    schema: z.strictObject({ name: z.string().min(1) }),
  };

  it('migrates, then parses with the current schema', () => {
    expect(readStoredDocument({ title: 'x' }, 1, registry)).toEqual({ success: true, data: { name: 'x' } });
  });

  it('reports a body the current schema refuses, or a failing step, as an error message instead of throwing', () => {
    expect(readStoredDocument({ title: '' }, 1, registry)).toEqual({ success: false, error: expect.stringContaining('name: ') });
    expect(readStoredDocument(null, 1, registry)).toEqual({ success: false, error: expect.stringContaining('a migration from schema version 1 failed') });
    expect(readStoredDocument({ name: 'x' }, 3, registry)).toEqual({ success: false, error: expect.stringContaining('newer than') });
  });
});
