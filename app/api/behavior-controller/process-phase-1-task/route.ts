import { routes } from '@/lib/api/routes';
import { phase1Answer, stage1InputOf } from '@/lib/planning/behavior-controller-protocol';
import { Stage1Input } from '@/lib/planning/planning-types';
import { notAllowed } from '@/lib/server/platform/http/endpoint';
import { behaviorControllerRoute } from '@/lib/server/planning/behavior-controller-route';

export const dynamic = 'force-dynamic';

/** Seed 000's Stage 1 call: the prompt in, a list of PlannerTasks out, each loadable with the seed's `PlannerTask(**task)`. */
export const POST = behaviorControllerRoute(routes.processPhase1Task, async (payload, backend, registry) => {
  const input = Stage1Input.parse(stage1InputOf(payload.phase_1_data.task_input_data));
  const { tasks } = await backend.stage1(input, registry, () => {});
  return phase1Answer(tasks);
});

export const { GET, PUT, PATCH, DELETE } = notAllowed('/api/behavior-controller/process-phase-1-task');
