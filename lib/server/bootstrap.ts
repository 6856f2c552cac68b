import 'server-only';
import { prepareAuditTrail } from './audit/audit-log';
import { ensureEnvAdminToken } from './auth/api-tokens';
import { getDatabase, setDatabaseBootstrap } from './platform/db/connection';
import type { DatabaseHandle } from './platform/db/client';
import { seedDemoPlans, demoPlansEnabled } from './demo/seed-demo-plans';
import { demoUsersEnabled, seedDemoUsers } from './demo/seed-demo-users';
import { seedDemoRegistry } from './registry/registry-service';
import { resultUrlsFromEnv, startRunWorkers, stopRunWorkers, workersEnabled } from './runs/run-workers';
import { startWebhooks } from './webhooks/webhook-worker';

// The server's start-up work on a freshly opened database. It sits above every service it
// calls; lib/server/platform/db/connection.ts only runs it, so the database layer depends on nothing
// above it.
async function prepareDatabase(handle: DatabaseHandle): Promise<void> {
  // Makes the audit key on first start and says loudly when the trail cannot be trusted.
  await prepareAuditTrail(handle.db);
  if (demoPlansEnabled()) {
    await seedDemoPlans(handle.db);
    await seedDemoRegistry(handle.db);
  }
  if (demoUsersEnabled(handle.kind)) await seedDemoUsers(handle.db);
  await ensureEnvAdminToken(handle.db, process.env.PLANGATE_ADMIN_TOKEN);
  // Lets actions queue outgoing webhooks and, where this instance works queues, sends them.
  // Before the run workers: a finishing run queues its events too. Closing the database stops it.
  await startWebhooks(handle, { work: workersEnabled() });
  // Runs approved plans. The queue must stop before the database it runs on closes.
  if (workersEnabled()) {
    const close = handle.close;
    handle.close = async () => {
      await stopRunWorkers(handle);
      await close();
    };
    await startRunWorkers(handle, { resultUrl: resultUrlsFromEnv() });
  }
}

/**
 * Called once by instrumentation.ts when the Next.js server starts: registers the start-up
 * work, then opens the database so demo users, plans and the admin token exist before the
 * first request. If the database cannot be reached yet, the server still starts and the
 * next getDatabase() retries the open and the start-up work together.
 */
export async function bootstrapServer(): Promise<void> {
  setDatabaseBootstrap(prepareDatabase);
  try {
    await getDatabase();
  } catch (error) {
    console.error('Plangate could not open its database at start-up; it will retry on the first request.', error);
  }
}
