import { openApiDocument } from '@/lib/api/openapi';
import { json, route } from '@/lib/server/http/route';

export const dynamic = 'force-static';

export const GET = route(async () => json(openApiDocument()));
