import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { appSettings } from '../db/schema';

const KEY = 'auth_secret';

/**
 * The key that signs session cookies: PLANGATE_AUTH_SECRET when set, otherwise one made on
 * first start and kept in the database, so sessions survive restarts and every instance
 * sharing a database signs alike.
 */
export async function authSecret(db: Database, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.PLANGATE_AUTH_SECRET) return env.PLANGATE_AUTH_SECRET;
  await db
    .insert(appSettings)
    .values({ key: KEY, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, KEY));
  return row.value;
}
