import { decisionRoute } from '@/lib/server/approval/decision-route';

export const dynamic = 'force-dynamic';

export const POST = decisionRoute('changes_requested');
