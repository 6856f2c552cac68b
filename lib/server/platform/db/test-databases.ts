import 'server-only';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from './client';
import { migrationsFolder } from './migrations-folder';
import { withClient } from './pg-admin-test-support';

// Test support: the same repository tests run on every database Plangate supports.
// PostgreSQL is included when TEST_DATABASE_URL is set (always in CI); each test file
// gets its own throw-away database so runs never see each other's rows. Both are cloned
// from a database migrated once for the whole run (scripts/vitest-global-setup.ts); the
// migrations themselves are tested where they are applied to older data, on an empty
// database of each kind (`scratch`) migrated as far as an older release (migrationsUpTo).

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<DatabaseHandle>;
  /** An empty database of this kind, not cloned from the migrated one (see ScratchDatabase). */
  scratch(): Promise<ScratchDatabase>;
}

/**
 * A database for one migration test, opened as often as the test likes: each open applies
 * the migrations of `migrations` it has not had yet, as a start of that release would.
 */
export interface ScratchDatabase {
  open(migrations?: string): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

/**
 * A copy of the migrations that ends at `tag` (the journal cut after it), in a temporary
 * folder: a database opened with it is at the schema the release with that migration left.
 */
export function migrationsUpTo(tag: string): string {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const last = journal.entries.findIndex((entry) => entry.tag === tag);
  if (last < 0) throw new Error(`migrationsUpTo: no migration "${tag}"`);
  const folder = mkdtempSync(path.join(os.tmpdir(), 'plangate-migrations-'));
  mkdirSync(path.join(folder, 'meta'));
  const entries = journal.entries.slice(0, last + 1);
  for (const entry of entries) copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  return folder;
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

/**
 * Fills `dataDir` with the migrated database, as a server's first start leaves it, for tests of
 * processes that open a data directory themselves (the CLI): creating and migrating one from
 * nothing costs each of them several seconds of CPU the snapshot has already paid.
 */
export async function migratedPgliteDataDir(dataDir: string): Promise<void> {
  const loadDataDir = pgliteSnapshot();
  if (!loadDataDir) throw new Error('migratedPgliteDataDir: no PGlite snapshot (scripts/vitest-global-setup.ts provides it)');
  const client = await PGlite.create({ dataDir, loadDataDir });
  await client.close();
}

export function testDatabases(env: NodeJS.ProcessEnv = process.env): TestDatabase[] {
  const databases: TestDatabase[] = [
    {
      name: 'pglite',
      open: () => openDatabase({ kind: 'pglite', dataDir: null, snapshot: pgliteSnapshot() }),
      // On disk, so it outlives the handle that made it: a closed in-memory PGlite is gone.
      async scratch() {
        const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plangate-scratch-'));
        return { open: (migrations) => openDatabase({ kind: 'pglite', dataDir }, migrations), drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
      },
    },
  ];
  const adminUrl = env.TEST_DATABASE_URL;
  if (adminUrl) {
    databases.push({
      name: 'postgres',
      async scratch() {
        const url = await createScratchDatabase(adminUrl, 'plangate_scratch');
        return { open: (migrations) => openDatabase({ kind: 'postgres', url }, migrations), drop: () => dropScratchDatabase(adminUrl, url) };
      },
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
