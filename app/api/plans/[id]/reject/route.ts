import { routes } from '@/lib/api/routes';
import { decisionRoute } from '@/lib/server/approval/decision-route';
import { notAllowed } from '@/lib/server/platform/http/endpoint';

export const dynamic = 'force-dynamic';

export const POST = decisionRoute(routes.rejectPlan, 'rejected');

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/plans/{id}/reject');
