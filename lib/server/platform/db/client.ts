import 'server-only';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { dbSchema } from './schema';
import { lockDataDir } from './data-dir-lock';
import { migrationsFolder } from './migrations-folder';

export type Database = PgDatabase<PgQueryResultHKT, typeof dbSchema>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** What the job queue (pg-boss) connects through: its own pool on PostgreSQL, the one PGlite in-process. */
  jobs: { kind: 'postgres'; url: string } | { kind: 'pglite'; client: import('@electric-sql/pglite').PGlite };
  close(): Promise<void>;
}

export type DatabaseConfig =
  | { kind: 'postgres'; url: string }
  /**
   * `dataDir` null is an in-memory database (tests). It may start from `snapshot`, a dump of
   * a database already migrated: that skips PGlite's initdb, most of a fresh start's time.
   */
  | { kind: 'pglite'; dataDir: string | null; snapshot?: Blob };

export function databaseConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  if (env.DATABASE_URL) return { kind: 'postgres', url: env.DATABASE_URL };
  return { kind: 'pglite', dataDir: path.resolve(/* turbopackIgnore: true */ process.cwd(), env.PLANGATE_DATA_DIR || '.data') };
}

// Several app instances may start at once against one PostgreSQL database; the lock
// makes them apply migrations one after another instead of racing on CREATE TABLE.
const MIGRATION_LOCK_KEY = 7_316_002;

async function openPostgres(url: string, migrations: string): Promise<DatabaseHandle> {
  const { Pool } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new Pool({ connectionString: url, max: 10 });
  // An idle connection can be cut by the server (restart, failover, admin); without a
  // listener that error would crash the process instead of failing one query later.
  pool.on('error', (error) => console.error('[plangate] idle PostgreSQL connection lost:', error.message));
  try {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migrate(drizzle({ client }), { migrationsFolder: migrations });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      client.release();
    }
  } catch (error) {
    // A failed start must not leave a pool behind; the next attempt makes its own.
    await pool.end().catch(() => undefined);
    throw error;
  }
  return { db: drizzle({ client: pool, schema: dbSchema }), kind: 'postgres', jobs: { kind: 'postgres', url }, close: () => pool.end() };
}

async function openPglite(migrations: string, dataDir: string | null, snapshot?: Blob): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // PGlite does not create parent folders; null means an in-memory database (tests).
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    const client = dataDir ? await PGlite.create(dataDir) : await PGlite.create(snapshot ? { loadDataDir: snapshot } : {});
    // Each bitmap heap scan asks the file system for its table's size, which PGlite's Node file
    // system answers with a synchronous fstat: reading a 20,000-task revision (one index probe
    // per task) made 20,000 of them, about a second of the server's thread. Plain index scans
    // read the same rows from the buffers. PGlite has one session, so this holds for every query.
    await client.exec('SET enable_bitmapscan = off');
    const db = drizzle({ client, schema: dbSchema });
    await migrate(db, { migrationsFolder: migrations });
    return { db, kind: 'pglite', jobs: { kind: 'pglite', client }, close: () => client.close().finally(release) };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * Opens a database and brings its schema up to date: applies the migrations of `migrations`
 * it has not had (a migration test passes an older release's, see migrationsUpTo).
 */
export async function openDatabase(config: DatabaseConfig, migrations = migrationsFolder): Promise<DatabaseHandle> {
  return config.kind === 'postgres' ? openPostgres(config.url, migrations) : openPglite(migrations, config.dataDir, config.snapshot);
}
