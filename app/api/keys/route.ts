import { routes } from '@/lib/api/routes';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';
import { publishedKeys } from '@/lib/server/passkeys/passkey-service';

export const GET = endpoint(routes.listPublicKeys, async () => {
  const { db } = await getDatabase();
  return json({ keys: await publishedKeys(db) }, 200, { 'Cache-Control': 'no-store' });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/keys');
