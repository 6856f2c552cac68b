import 'server-only';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from './client';
import { withClient } from './pg-admin-test-support';

// Test support: the same repository tests run on every database Plangate supports.
// PostgreSQL is included when TEST_DATABASE_URL is set (always in CI); each test file
// gets its own throw-away database so runs never see each other's rows. Both are cloned
// from a database migrated once for the whole run (scripts/vitest-global-setup.ts); the
// migrations themselves are tested where they are applied to older data.

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<DatabaseHandle>;
}

/** Creates a database next to the one `url` names (empty, or a copy of `template`) and returns its URL. */
export async function createScratchDatabase(url: string, prefix: string, template?: string): Promise<string> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await withClient(url, (client) => client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return scratch.toString();
}

export async function dropScratchDatabase(adminUrl: string, scratchUrl: string): Promise<void> {
  const name = new URL(scratchUrl).pathname.slice(1);
  await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** The migrated PGlite dump, read once per test file. */
let snapshot: Blob | undefined;
function pgliteSnapshot(): Blob | undefined {
  const file = inject('pgliteSnapshot');
  if (file && !snapshot) snapshot = new Blob([readFileSync(file)]);
  return snapshot;
}

export function testDatabases(env: NodeJS.ProcessEnv = process.env): TestDatabase[] {
  const databases: TestDatabase[] = [{ name: 'pglite', open: () => openDatabase({ kind: 'pglite', dataDir: null, snapshot: pgliteSnapshot() }) }];
  const adminUrl = env.TEST_DATABASE_URL;
  if (adminUrl) {
    databases.push({
      name: 'postgres',
      async open() {
        const url = await createScratchDatabase(adminUrl, 'plangate_unit', inject('postgresTemplate') || undefined);
        const handle = await openDatabase({ kind: 'postgres', url });
        return {
          ...handle,
          async close() {
            await handle.close();
            await dropScratchDatabase(adminUrl, url);
          },
        };
      },
    });
  }
  return databases;
}

/**
 * Opens `database` before the surrounding describe block's tests and closes it after;
 * call inside `describe`. The returned function gives the open database.
 */
export function useTestDatabase(database: TestDatabase): () => DatabaseHandle['db'] {
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle?.close();
  });
  return () => {
    if (!handle) throw new Error('useTestDatabase: the database is not open yet');
    return handle.db;
  };
}
