import { authed, json } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

export const GET = authed('viewer', async (_request, _context, principal) => json(principal));
