import 'server-only';
import { GenerateRequest, Stage2Request } from '@/lib/api/request-schemas';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import { PlannerTask, nowTimestamp } from '@/lib/plan';
import { chooseBackend } from './choose-backend';
import { type BackendId, type PlanPlannedBy, type PlanningBackend, type Progress } from '@/lib/planning/planning-types';
import { checkedStage2 } from '@/lib/planning/stage2-check';
import type { Principal } from '../auth/principal';
import type { Database } from '../platform/db/client';
import { AppError, fromZodError } from '../platform/errors';
import { createPlan, getPlan, savePlan } from '../plans/plan-service';
import { getRegistry } from '../registry/registry-service';

// Stage 1 (a new plan from a job) and Stage 2 (an executable input per task), whichever
// backend is configured. A Stage 1 plan is stored as a draft whatever its validation says
// (the editor and the gate show and enforce that); a Stage 2 answer is stored only once
// its uid and input pass the registry.

export { GenerateRequest, Stage2Request };

/**
 * What `choose` gives for the backend a request names (or the configured one). A planner
 * the request names but the server lacks is the request's problem (400); a bad server
 * default is the server's (503). Also the replanner's.
 */
export function chooseOrRefuse<T>(choose: (requested?: BackendId) => T, requested?: BackendId): T {
  try {
    return choose(requested);
  } catch (error) {
    if (requested) throw new AppError('bad_request', 400, (error as Error).message);
    throw new AppError('unavailable', 503, `Planning is not configured: ${(error as Error).message}`);
  }
}

const backendFor = (requested?: BackendId): PlanningBackend => chooseOrRefuse(chooseBackend, requested);

/** A planner's failure (network, HTTP, an answer still unusable after retries) as a 502 naming it; also the LLM optimiser's. */
export function plannerFailed(backend: Pick<PlanningBackend, 'label' | 'backend' | 'model'>, error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError('planner_failed', 502, `${backend.label} failed: ${(error as Error).message}`, undefined, { backend: backend.backend, model: backend.model });
}

/** Stage 1 for a job parsed by the caller (the endpoint layer parses the request once). */
export async function generatePlan(db: Database, job: GenerateRequest, principal: Principal, progress: Progress = () => {}) {
  const { backend: requested, ...input } = job;
  const backend = backendFor(requested);
  const registry = await getRegistry(db);
  const { tasks, notes } = await backend.stage1(input, registry, progress).catch((error: unknown) => {
    throw plannerFailed(backend, error);
  });
  progress(`Storing the plan (${tasks.length} task${tasks.length === 1 ? '' : 's'})`);
  const plannedBy: PlanPlannedBy = { backend: backend.backend, model: backend.model, label: backend.label, notes, at: nowTimestamp() };
  const request = CreatePlanRequest.safeParse({
    title: input.task_description.split('\n')[0].slice(0, 120),
    plan: {
      planned_tasks: tasks,
      original_job_data: { ...input, planned_by: plannedBy },
    },
    job: {
      job_goal: input.job_goal,
      job_objectives: input.job_objectives,
      job_steerability_data: input.job_steerability_data,
      task_description: input.task_description,
    },
    message: `Planned by ${backend.label}`,
  });
  // The planner's tasks are checked like any plan; what does not fit is the planner's fault.
  if (!request.success) throw plannerFailed(backend, new Error(fromZodError(request.error, 'plan').message));
  const created = await createPlan(db, request.data, principal.username);
  return { ...created, planned_by: plannedBy };
}

/** Stage 2 for one task as the editor holds it: computed and checked, not stored (the editor saves it). */
export async function computeStage2(db: Database, task: PlannerTask, inputData: Record<string, unknown>, requested?: PlanningBackend['backend']) {
  const backend = backendFor(requested);
  const registry = await getRegistry(db);
  const result = await checkedStage2(backend, task, inputData, registry).catch((error: unknown) => {
    throw plannerFailed(backend, error);
  });
  return { task_id: task.task_id, ...result, planned_by: { backend: backend.backend, model: backend.model } };
}

/** Stage 2 for stored tasks: each result goes onto its task (parameters.stage2) in one new revision. */
export async function runStage2(db: Database, id: string, request: Stage2Request, principal: Principal) {
  const { task_ids, input_data, base_revision, backend } = request;
  const head = await getPlan(db, id);
  if (base_revision !== undefined && base_revision !== head.revision) {
    throw new AppError('conflict', 409, `Plan "${id}" is at revision ${head.revision}, not ${base_revision}`, undefined, { current_revision: head.revision });
  }
  const byId = new Map(head.plan.planned_tasks.map((task) => [task.task_id, task]));
  const missing = task_ids.filter((taskId) => !byId.has(taskId));
  if (missing.length) throw new AppError('bad_request', 400, `No task ${missing.map((m) => `"${m.slice(0, 100)}"`).join(', ')} in plan "${id}"`);
  const results = [];
  for (const taskId of new Set(task_ids)) {
    const task = byId.get(taskId)!;
    const result = await computeStage2(db, task, input_data ?? {}, backend);
    results.push(result);
    const { task_id: _id, ...stage2 } = result;
    const updated = PlannerTask.safeParse({ ...task, parameters: { ...task.parameters, stage2 } });
    if (!updated.success) throw fromZodError(updated.error, `task "${taskId}" with its Stage 2 result`);
    byId.set(taskId, updated.data);
  }
  const saved = await savePlan(
    db,
    id,
    SavePlanRequest.parse({
      base_revision: head.revision,
      plan: { ...head.plan, planned_tasks: head.plan.planned_tasks.map((task) => byId.get(task.task_id)!) },
      message: `Stage 2 for ${[...new Set(task_ids)].join(', ')}`.slice(0, 500),
    }),
    principal.username,
  );
  return { ...saved, results };
}
