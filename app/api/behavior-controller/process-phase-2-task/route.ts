import { Phase2Payload, stage2RequestOf } from '@/lib/planning/behavior-controller-protocol';
import { checkedStage2 } from '@/lib/planning/stage2-check';
import { behaviorControllerRoute } from '@/lib/server/planning/behavior-controller-route';

export const dynamic = 'force-dynamic';

/** Seed 000's Stage 2 call: the prompt (or { task, input_data }) in, { uid, input_data, plan } out. */
export const POST = behaviorControllerRoute(Phase2Payload, async (payload, backend, registry) => {
  const { task, inputData } = stage2RequestOf(payload.phase_2_data.task_input_data, registry);
  return checkedStage2(backend, task, inputData, registry);
});
