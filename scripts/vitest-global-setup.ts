import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { TestProject } from 'vitest/node';
import { withClient } from '../lib/server/platform/db/pg-admin-test-support';

// Migrate once per change of the migrations, not once per test file: every repository test
// opens a fresh database, and on this machine a fresh PGlite (initdb) costs seconds. The
// migrated database is kept as a PGlite dump in the temp folder and, with TEST_DATABASE_URL,
// as a PostgreSQL template database; test files clone them (lib/server/platform/db/test-databases.ts).
// Both are named by a hash of the migrations, so a new migration makes new ones.

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a migrated PGlite database, for `loadDataDir`. */
    pgliteSnapshot: string;
    /** A migrated PostgreSQL database to use as `TEMPLATE`; '' without TEST_DATABASE_URL. */
    postgresTemplate: string;
  }
}

const migrationsFolder = path.resolve(__dirname, '../lib/server/platform/db/migrations');

/** The migrations and the PGlite release (a dump is read by the release that wrote it). */
function migrationsHash(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.resolve(__dirname, '../node_modules/@electric-sql/pglite/package.json')));
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(entry.name).update(readFileSync(full));
    }
  };
  walk(migrationsFolder);
  return hash.digest('hex').slice(0, 16);
}

async function pgliteSnapshot(hash: string): Promise<string> {
  const file = path.join(os.tmpdir(), `plangate-test-pglite-${hash}.tar`);
  if (existsSync(file)) return file;
  const client = await PGlite.create();
  try {
    await migratePglite(drizzlePglite({ client }), { migrationsFolder });
    const dump = await client.dumpDataDir('none');
    // Written aside and renamed, so a concurrent run never reads half a file.
    const partial = `${file}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await client.close();
  }
  return file;
}

async function postgresTemplate(adminUrl: string, hash: string): Promise<string> {
  const name = `plangate_template_${hash}`;
  const exists = await withClient(adminUrl, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
  if (exists) return name;
  // Migrated under a name of its own, then renamed: a concurrent run sees the template whole or not at all.
  const building = `${name}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${building}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${building}`;
  await withClient(url.toString(), (client) => migratePg(drizzlePg({ client }), { migrationsFolder }));
  await withClient(adminUrl, async (c) => {
    try {
      await c.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } catch {
      // Another run made it first.
      await c.query(`DROP DATABASE IF EXISTS "${building}"`);
    }
  });
  return name;
}

export default async function setup(project: TestProject) {
  const hash = migrationsHash();
  const adminUrl = process.env.TEST_DATABASE_URL;
  const [snapshot, template] = await Promise.all([pgliteSnapshot(hash), adminUrl ? postgresTemplate(adminUrl, hash) : Promise.resolve('')]);
  project.provide('pgliteSnapshot', snapshot);
  project.provide('postgresTemplate', template);
}
