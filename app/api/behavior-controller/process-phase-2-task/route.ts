import { routes } from '@/lib/api/routes';
import { phase2Registry, stage2RequestOf } from '@/lib/planning/behavior-controller-protocol';
import { checkedStage2 } from '@/lib/planning/stage2-check';
import { notAllowed } from '@/lib/server/platform/http/endpoint';
import { behaviorControllerRoute } from '@/lib/server/planning/behavior-controller-route';

export const dynamic = 'force-dynamic';

/**
 * Seed 000's Stage 2 call: the prompt (or { task, input_data, candidates? }) in,
 * { uid, input_data, plan } out. The answer is chosen among the resources the request
 * offers, when it offers any, and checked against them.
 */
export const POST = behaviorControllerRoute(routes.processPhase2Task, async (payload, backend, registry) => {
  const { task, inputData, offered } = stage2RequestOf(payload.phase_2_data.task_input_data, registry);
  return checkedStage2(backend, task, inputData, phase2Registry(task, offered, registry));
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/behavior-controller/process-phase-2-task');
