import { routes } from '@/lib/api/routes';
import { threadStateRoute } from '@/lib/server/comments/thread-state-route';
import { notAllowed } from '@/lib/server/platform/http/endpoint';

export const dynamic = 'force-dynamic';

export const POST = threadStateRoute(routes.resolveThread, true);

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/comments/{commentId}/resolve');
