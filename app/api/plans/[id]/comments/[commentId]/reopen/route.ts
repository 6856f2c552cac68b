import { routes } from '@/lib/api/routes';
import { threadStateRoute } from '@/lib/server/comments/thread-state-route';
import { notAllowed } from '@/lib/server/platform/http/endpoint';

export const dynamic = 'force-dynamic';

export const POST = threadStateRoute(routes.reopenThread, false);

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/comments/{commentId}/reopen');
