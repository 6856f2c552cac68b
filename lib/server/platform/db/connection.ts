import 'server-only';
import { databaseConfigFromEnv, openDatabase, type DatabaseHandle } from './client';
import { drainOnSignals } from '../shutdown';

// One handle per process, kept on globalThis so Next's module reloading in development
// does not open a second PGlite on the same directory (one process per directory).
const globalKey = Symbol.for('plangate.database');
// The start-up work (audit key, demo data, admin token, webhooks, run workers) lives in
// lib/server/bootstrap.ts, which registers it here. Connection knows only the slot, so the
// database layer imports nothing above it (no cycle through auth and the services). The slot
// is on globalThis because instrumentation.ts and the routes are separate bundles.
const bootstrapKey = Symbol.for('plangate.databaseBootstrap');
type Bootstrap = (handle: DatabaseHandle) => Promise<void>;
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<DatabaseHandle>; [bootstrapKey]?: Bootstrap };

/**
 * Sets the work run on every fresh handle before anyone else gets it. A failed open (or
 * failed bootstrap) is forgotten, so the next getDatabase() tries both again.
 */
export function setDatabaseBootstrap(bootstrap: Bootstrap): void {
  (globalThis as GlobalWithDb)[bootstrapKey] = bootstrap;
}

async function open(): Promise<DatabaseHandle> {
  const handle = await openDatabase(databaseConfigFromEnv());
  const bootstrap = (globalThis as GlobalWithDb)[bootstrapKey];
  try {
    if (bootstrap) await bootstrap(handle);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  // On the way out the requests under way finish, the workers stop taking jobs (another
  // instance takes over what was in flight) and PGlite, which writes its files from this
  // process, closes cleanly for the next start; bounded, so a process told to stop stops
  // within seconds under any load (shutdown.ts).
  drainOnSignals(closeDatabase);
  return handle;
}

/** The process's database, opened, migrated and bootstrapped on first use. */
export function getDatabase(): Promise<DatabaseHandle> {
  const store = globalThis as GlobalWithDb;
  store[globalKey] ??= open().catch((error: unknown) => {
    delete store[globalKey];
    throw error;
  });
  return store[globalKey];
}

export async function closeDatabase(): Promise<void> {
  const store = globalThis as GlobalWithDb;
  const handle = store[globalKey];
  delete store[globalKey];
  if (handle) await (await handle).close();
}
