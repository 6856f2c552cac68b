import 'server-only';
import { expect } from 'vitest';
import type { z } from 'zod';
import { CreatePlanRequest } from '@/lib/api/schemas';
import type { TaskDataInput } from '@/lib/plan';
import { Registry } from '@/lib/registry';
import type { RunState } from '@/lib/runs/run-states';
import { decide, submitForReview } from '../approval/approval-service';
import type { DatabaseHandle } from '../db/client';
import { createPlan } from '../plans/plan-service';
import { replaceRegistry } from '../registry/registry-service';
import { principal } from '../test-support';
import { getRun } from './run-queries';

// Test support for runs: a plan approved by a second person, and waiting for a run's state.

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

/** Waits until the run reaches `state` (failing the test with the run's tasks if it does not). */
export async function runReaches(handle: DatabaseHandle, runId: string, state: RunState, timeout = 30_000) {
  await expect
    .poll(async () => {
      const run = await getRun(handle.db, runId);
      return run.state === state ? state : `${run.state}: ${run.tasks.map((t) => `${t.task_id}=${t.state}${t.error ? ` (${t.error})` : ''}`).join(', ')}`;
    }, { timeout, interval: 200 })
    .toBe(state);
  return getRun(handle.db, runId);
}
