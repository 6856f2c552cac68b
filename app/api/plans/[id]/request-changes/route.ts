import { routes } from '@/lib/api/routes';
import { decisionRoute } from '@/lib/server/approval/decision-route';
import { notAllowed } from '@/lib/server/platform/http/endpoint';

export const dynamic = 'force-dynamic';

export const POST = decisionRoute(routes.requestChanges, 'changes_requested');

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/request-changes');
