import { prepareAuditTrail } from '../audit/audit-log';
import { ensureEnvAdminToken } from '../auth/api-tokens';
import { seedDemoPlans, demoPlansEnabled } from '../demo/seed-demo-plans';
import { demoUsersEnabled, seedDemoUsers } from '../demo/seed-demo-users';
import { seedDemoRegistry } from '../registry/registry-service';
import { startWebhookDispatcher } from '../webhooks/dispatcher';
import { databaseConfigFromEnv, openDatabase, type DatabaseHandle } from './client';

// One handle per process, kept on globalThis so Next's module reloading in development
// does not open a second PGlite on the same directory (one process per directory).
const globalKey = Symbol.for('plangate.database');
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<DatabaseHandle> };

async function open(): Promise<DatabaseHandle> {
  const handle = await openDatabase(databaseConfigFromEnv());
  // Makes the audit key on first start and says loudly when the trail cannot be trusted.
  await prepareAuditTrail(handle.db);
  if (demoPlansEnabled()) {
    await seedDemoPlans(handle.db);
    await seedDemoRegistry(handle.db);
  }
  if (demoUsersEnabled(handle.kind)) await seedDemoUsers(handle.db);
  await ensureEnvAdminToken(handle.db, process.env.PLANGATE_ADMIN_TOKEN);
  // Sends the outgoing webhooks the actions queue; closing the database stops it.
  startWebhookDispatcher(handle);
  if (handle.kind === 'pglite') {
    // PGlite writes its files from this process; closing it on the way out leaves the
    // data directory clean for the next start.
    const shutdown = (signal: NodeJS.Signals) => {
      void closeDatabase().finally(() => process.kill(process.pid, signal));
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  }
  return handle;
}

/** The process's database, opened, migrated and seeded on first use. */
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
