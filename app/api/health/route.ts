import { sql } from 'drizzle-orm';
import { getDatabase } from '@/lib/server/db/connection';
import { json, route } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

export const GET = route(async () => {
  const { db, kind } = await getDatabase();
  await db.execute(sql`select 1`);
  return json({ ok: true, database: kind });
});
