import { routes } from '@/lib/api/routes';
import { endpoint, notAllowed } from '@/lib/server/http/endpoint';
import { json } from '@/lib/server/http/route';

export const dynamic = 'force-dynamic';

export const GET = endpoint(routes.getMe, async ({ principal }) => json(principal));

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/me');
