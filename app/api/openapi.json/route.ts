import { openApiDocument } from '@/lib/api/openapi';
import { routes } from '@/lib/api/routes';
import { endpoint, notAllowed } from '@/lib/server/platform/http/endpoint';
import { json } from '@/lib/server/platform/http/route';

export const dynamic = 'force-static';

export const GET = endpoint(routes.getOpenApi, async () => json(openApiDocument()));

export const { POST, PUT, PATCH, DELETE } = notAllowed('/api/openapi.json');
