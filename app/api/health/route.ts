import { sql } from 'drizzle-orm';
import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

export const GET = endpoint(routes.getHealth, async () => {
  const { db, kind } = await getDatabase();
  await db.execute(sql`select 1`);
  return json({ ok: true, database: kind });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/health');
