import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { databaseStatus } from '@/lib/server/platform/db/database-probe';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

/** Answers from the event loop; the database's status comes from a probe that does not wait behind a long write (database-probe.ts). */
export const GET = endpoint(routes.getHealth, async () => {
  const { db, kind } = await getDatabase();
  const database = await databaseStatus(db);
  return json({ ok: true, database: kind, database_status: database.status, database_ms: database.ms });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/health');
