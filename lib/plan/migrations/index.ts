import type { z } from 'zod';
import { StoredPlanDocument, type PlanDocument } from '../schema';

// Stored plan documents are immutable, but the schema that reads them is not. Each
// revision records the schema version it was written under; reading one runs the small
// steps from that version up to the current one, then parses with the current schema,
// so a later tightening never makes an old revision unreadable (tldraw's store migrates
// its records the same way). The stored body is never rewritten: its content hash stays
// the hash of what was written.
//
// To change the stored shape: bump CURRENT_SCHEMA_VERSION, append { from: n, to: n + 1,
// up } to `migrations`, change StoredPlanDocument, and test the step on a body written
// under version n (see migrations.test.ts).

/** The schema version new revisions are written under. */
export const CURRENT_SCHEMA_VERSION = 1;

/** One step: turns a body valid under version `from` into one valid under `to` (= from + 1). */
export interface DocumentMigration {
  from: number;
  to: number;
  /** Pure: returns a new value and leaves its argument as it was. */
  up(doc: unknown): unknown;
}

/** Every step so far, oldest first. */
export const migrations: readonly DocumentMigration[] = [];

/** What reading a stored document needs: the version, the steps up to it and the schema at it. */
export interface DocumentSchemaRegistry<T = PlanDocument> {
  currentVersion: number;
  migrations: readonly DocumentMigration[];
  schema: z.ZodType<T>;
}

/** The registry the application reads with; tests pass their own instead of changing this one. */
export const documentSchema: DocumentSchemaRegistry = {
  currentVersion: CURRENT_SCHEMA_VERSION,
  migrations,
  schema: StoredPlanDocument,
};

export class DocumentMigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentMigrationError';
  }
}

/**
 * The stored body `doc`, written under schema `version`, brought up to the registry's
 * current version. Refuses a version this code does not know yet (written by a newer
 * release) and a chain with a missing step, rather than parse a body it cannot vouch for.
 */
export function migrateDocument(
  doc: unknown,
  version: number,
  registry: Pick<DocumentSchemaRegistry<unknown>, 'currentVersion' | 'migrations'> = documentSchema,
): unknown {
  const { currentVersion } = registry;
  if (!Number.isInteger(version) || version < 1) {
    throw new DocumentMigrationError(`migrateDocument: schema version ${version} is not a positive integer`);
  }
  if (version > currentVersion) {
    throw new DocumentMigrationError(
      `migrateDocument: the document was written under schema version ${version}, newer than this code's ${currentVersion}; upgrade Plangate to read it`,
    );
  }
  const steps = new Map<number, DocumentMigration>();
  for (const step of registry.migrations) {
    if (step.to !== step.from + 1) {
      throw new DocumentMigrationError(`migrateDocument: a migration must go up one version; found ${step.from} -> ${step.to}`);
    }
    if (steps.has(step.from)) throw new DocumentMigrationError(`migrateDocument: two migrations start at version ${step.from}`);
    steps.set(step.from, step);
  }
  let current = doc;
  for (let at = version; at < currentVersion; at += 1) {
    const step = steps.get(at);
    if (!step) {
      throw new DocumentMigrationError(
        `migrateDocument: no migration from schema version ${at} to ${at + 1}, so a version ${version} document cannot be read as version ${currentVersion}`,
      );
    }
    current = step.up(current);
  }
  return current;
}

/** A stored body migrated to the current version and parsed with the current schema. */
export function readStoredDocument<T>(
  doc: unknown,
  version: number,
  registry: DocumentSchemaRegistry<T>,
): { success: true; data: T } | { success: false; error: string } {
  let migrated: unknown;
  try {
    migrated = migrateDocument(doc, version, registry);
  } catch (error) {
    if (error instanceof DocumentMigrationError) return { success: false, error: error.message };
    return { success: false, error: `a migration from schema version ${version} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = registry.schema.safeParse(migrated);
  if (parsed.success) return { success: true, data: parsed.data };
  const first = parsed.error.issues[0];
  return {
    success: false,
    error: `it does not match schema version ${registry.currentVersion}${first ? ` (${first.path.join('.') || 'body'}: ${first.message})` : ''}`,
  };
}

/** Which stored revision a document is, to name it when it cannot be read. */
export interface StoredRevisionRef {
  planId: string;
  revision: number;
  schemaVersion: number;
}

/**
 * A stored revision's document read through the migrations, or the integrity problem that
 * names its row: the server's repository turns it into a 409, and a compute worker reading
 * the same text off the event loop refuses with the same words.
 */
export function readRevisionDocument<T>(
  row: StoredRevisionRef & { body: unknown },
  registry: DocumentSchemaRegistry<T>,
): { success: true; data: T } | { success: false; message: string; extra: Record<string, unknown> } {
  const read = readStoredDocument(row.body, row.schemaVersion, registry);
  if (read.success) return read;
  return {
    success: false,
    message: `plan_revisions row (plan "${row.planId}", revision ${row.revision}, schema version ${row.schemaVersion}) cannot be read: ${read.error}`,
    extra: { reason: 'integrity', table: 'plan_revisions', plan_id: row.planId, revision: row.revision },
  };
}
