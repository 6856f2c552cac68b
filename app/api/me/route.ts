import { routes } from '@/lib/api/routes';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-dynamic';

export const GET = endpoint(routes.getMe, async ({ principal }) => json(principal));

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/me');
