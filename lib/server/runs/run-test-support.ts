import 'server-only';
import type { z } from 'zod';
import { CreatePlanRequest, SavePlanRequest } from '@/lib/api/schemas';
import type { PlannerTask } from '@/lib/plan';
import type { TaskDataInput } from '@/lib/plan';
import { Registry } from '@/lib/registry';
import { decide, submitForReview } from '../approval/approval-service';
import type { DatabaseHandle } from '../platform/db/client';
import { createPlan, getPlan, savePlan } from '../plans/plan-service';
import { replaceRegistry } from '../registry/registry-service';
import type { Principal } from '../auth/principal';
import { openJobQueue } from './job-queue';
import { startRunWorker, type RunWorker, type WorkerOptions } from './run-workers';

// Test and bench support for runs: a plan approved by a second person.

// Written out rather than taken from ../test-support, which needs vitest: the bench uses these too.
const principal = (username: string, role: Principal['role']): Principal => ({ id: username, username, role, via: 'session', service: false });

export const runEditor = principal('eddie', 'editor');
export const runApprover = principal('alice', 'approver');
export const gateApprover = principal('bob', 'approver');

/** Creates `plan` under `registry`, submits and approves it; returns what POST /runs needs. */
export async function approvedPlan(handle: DatabaseHandle, title: string, plan: TaskDataInput, registry: z.input<typeof Registry>): Promise<{ id: string; revision: number; content_hash: string }> {
  await replaceRegistry(handle.db, Registry.parse(registry), 'admin');
  const created = await createPlan(handle.db, CreatePlanRequest.parse({ title, plan }), runEditor.username);
  await submitForReview(handle.db, created.id, {}, runEditor);
  await decide(handle.db, created.id, 'approved', { revision: created.revision, content_hash: created.content_hash, comment: '' }, runApprover);
  return { id: created.id, revision: created.revision, content_hash: created.content_hash };
}

/** Saves the plan with `edit` applied to its tasks (a replan, say), and has the new revision approved. */
export async function approvedRevision(handle: DatabaseHandle, id: string, edit: (task: PlannerTask) => PlannerTask): Promise<{ id: string; revision: number; content_hash: string }> {
  const head = await getPlan(handle.db, id);
  const plan = { ...head.plan, planned_tasks: head.plan.planned_tasks.map(edit) };
  const saved = await savePlan(handle.db, id, SavePlanRequest.parse({ base_revision: head.revision, plan, message: 'replanned' }), runEditor.username);
  await submitForReview(handle.db, id, {}, runEditor);
  await decide(handle.db, id, 'approved', { revision: saved.revision, content_hash: saved.content_hash, comment: '' }, runApprover);
  return { id, revision: saved.revision, content_hash: saved.content_hash };
}

/**
 * A worker on a queue instance of its own, as a second worker process would have. `kill()`
 * makes it die mid-call like a killed process: no heartbeat, no writes, its jobs left active
 * in the queue (its queue instance lives on until `dispose()`, so nothing fails them back
 * as a graceful shutdown would). `stop()` ends it cleanly.
 */
export async function startSecondWorker(handle: DatabaseHandle, options: WorkerOptions): Promise<RunWorker & { dispose(): Promise<void> }> {
  const boss = await openJobQueue(handle);
  const worker = await startRunWorker(handle, options, boss);
  return {
    id: worker.id,
    kill: () => worker.kill(),
    async stop() {
      await worker.stop();
      await boss.stop({ graceful: true, timeout: 2_000 }).catch(() => undefined);
    },
    dispose: () => boss.stop({ graceful: false, timeout: 1_000 }).catch(() => undefined),
  };
}
