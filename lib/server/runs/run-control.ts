import 'server-only';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { FINISHED_RUN_STATES, type RunState, type TaskState } from '@/lib/runs/run-states';
import { gateAllowsEdit, requiresApproval } from '@/lib/runs/task-policy';
import { appendAudit } from '../audit/audit-log';
import { canonicalJson, sha256Of } from '../audit/digests';
import type { Principal } from '../auth/principal';
import type { DatabaseHandle } from '../platform/db/client';
import { gateDecisions, inboxItems, runs, taskRuns } from '../platform/db/schema';
import { AppError, notFound } from '../platform/errors';
import { getJobQueue } from './job-queue';
import { appendRunEvent, appendRunEvents } from './run-events';
import { loadRunContext, lockRunRow, refreshRunState, taskRunsOf, updateTaskRun } from './run-records';
import { blockDependents, cancelJobs, downstreamOf, queuedJobIds, scheduleReady, shapeOf } from './run-scheduler';
import { assertMayDecideGate, automationRefusal } from './gate-deciders';
import { abortRunCalls } from './run-calls';
import type { DecisionSignature } from '@/lib/api/passkey-schemas';
import { acceptDecisionSignature, recordDecisionSignature, signingOptions, type ExpectedDecision } from '../passkeys/decision-signatures';
import type { RelyingParty } from '../passkeys/relying-party';

// What people do to a run while it goes: cancel, pause and resume it, retry a failed task,
// decide at a gate, and (for executors that answered 202) report a task's result. Each is
// one transaction on the run row, recorded as a run event; decisions also in the audit chain.

function refuse(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('conflict', 409, message, undefined, details);
}


/**
 * Cancels the run. Once this has answered no call of it starts, on any instance: a worker
 * marks a task running only in a transaction that holds the run's row lock and finds the run
 * running. Calls under way are aborted (here at once, elsewhere within a second).
 */
export async function cancelRun(handle: DatabaseHandle, principal: Principal, runId: string): Promise<RunState> {
  await getJobQueue(handle);
  const state = await handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    if (FINISHED_RUN_STATES.has(run.state as RunState)) throw refuse(`Run ${runId} is ${run.state} already; there is nothing to cancel`, { state: run.state });
    await tx.update(runs).set({ state: 'cancelled', updatedAt: sql`clock_timestamp()`, finishedAt: sql`clock_timestamp()` }).where(eq(runs.id, runId));
    // Tasks not under way end here; a call in flight is aborted by its worker within a second.
    await cancelJobs(handle, tx, await queuedJobIds(tx, runId, ['pending', 'retrying']));
    await tx
      .update(taskRuns)
      .set({ state: 'cancelled', jobId: null, finishedAt: sql`clock_timestamp()` })
      .where(and(eq(taskRuns.runId, runId), inArray(taskRuns.state, ['pending', 'retrying', 'awaiting_approval'])));
    await appendRunEvent(tx, runId, { kind: 'run_cancelled', actor: principal.username });
    await appendAudit(tx, { kind: 'run_cancelled', actor: principal.username, planId: run.planId, revision: run.revision, contentHash: run.contentHash, detail: { run_id: runId } });
    return 'cancelled' as RunState;
  });
  // Once committed, so the aborted calls find the run cancelled: here at once, elsewhere within a second.
  abortRunCalls(runId);
  return state;
}

/**
 * Pauses the run: once this has answered no call of it starts, on any instance (as for
 * cancel), while calls already under way finish and are recorded. Queued jobs are dropped;
 * resuming queues the tasks that are ready then.
 */
export async function pauseRun(handle: DatabaseHandle, principal: Principal, runId: string): Promise<RunState> {
  await getJobQueue(handle);
  return handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    if (!['running', 'awaiting_approval', 'needs_replan'].includes(run.state)) throw refuse(`Run ${runId} is ${run.state.replace('_', ' ')}; only a running run can be paused`, { state: run.state });
    const ids = await queuedJobIds(tx, runId, ['pending', 'retrying']);
    await cancelJobs(handle, tx, ids);
    await tx
      .update(taskRuns)
      .set({ jobId: null })
      .where(and(eq(taskRuns.runId, runId), inArray(taskRuns.state, ['pending', 'retrying'])));
    await tx.update(runs).set({ state: 'paused', updatedAt: sql`clock_timestamp()` }).where(eq(runs.id, runId));
    await appendRunEvent(tx, runId, { kind: 'run_paused', actor: principal.username, detail: { held: ids.length } });
    return 'paused' as RunState;
  });
}

export async function resumeRun(handle: DatabaseHandle, principal: Principal, runId: string): Promise<RunState> {
  await getJobQueue(handle);
  const context = await loadRunContext(handle.db, runId);
  return handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    if (run.state !== 'paused') throw refuse(`Run ${runId} is ${run.state.replace('_', ' ')}, not paused`, { state: run.state });
    await tx.update(runs).set({ state: 'running', updatedAt: sql`clock_timestamp()` }).where(eq(runs.id, runId));
    await appendRunEvent(tx, runId, { kind: 'run_resumed', actor: principal.username });
    const state = await refreshRunState(tx, runId, principal.username);
    await scheduleReady(handle, tx, runId, context.document.plan.planned_tasks);
    return state;
  });
}

/**
 * Runs a failed (or cancelled) task again, with the tasks it blocked: each starts a new
 * generation (a new idempotency key, its attempts counted afresh, a new gate decision needed
 * where it has a gate, one rejected before included) and is queued once its dependencies
 * have succeeded, whatever other branches are still doing.
 */
export async function retryTask(handle: DatabaseHandle, principal: Principal, runId: string, taskId: string): Promise<RunState> {
  await getJobQueue(handle);
  const context = await loadRunContext(handle.db, runId);
  if (!context.tasks.has(taskId)) throw notFound(`Task "${taskId}" in run ${runId}`);
  const tasks = context.document.plan.planned_tasks;
  return handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    if (FINISHED_RUN_STATES.has(run.state as RunState)) throw refuse(`Run ${runId} is ${run.state}; start a new run instead`, { state: run.state });
    const [continuation] = await tx.select({ id: runs.id }).from(runs).where(eq(runs.parentRunId, runId)).limit(1);
    if (continuation) throw refuse(`Run ${runId} was continued by run ${continuation.id}; retry its tasks there`, { continued_by: continuation.id });
    const records = new Map((await taskRunsOf(tx, runId)).map((r) => [r.taskId, r]));
    const state = records.get(taskId)?.state as TaskState | undefined;
    if (state !== 'failed' && state !== 'cancelled') throw refuse(`Task ${taskId} is ${state ?? 'unknown'}; only a failed or cancelled task can be retried`, { state });
    // The task and what it blocked downstream, except what another failed task still blocks (retrying that one frees it).
    const again = [taskId, ...downstreamOf(tasks, [taskId]).filter((id) => records.get(id)?.state === 'blocked')];
    const { dependencies } = shapeOf(tasks);
    const included = new Set(again);
    const stuck = (dep: string) => (included.has(dep) ? false : ['failed', 'blocked', 'cancelled'].includes(records.get(dep)?.state ?? ''));
    for (let changed = true; changed; ) {
      changed = false;
      for (const id of again) {
        if (id !== taskId && included.has(id) && dependencies.get(id)!.some(stuck)) {
          included.delete(id);
          changed = true;
        }
      }
    }
    again.splice(0, again.length, ...again.filter((id) => included.has(id)));
    for (let i = 0; i < again.length; i += 1000) {
      await tx
        .update(taskRuns)
        .set({
          state: 'pending',
          generation: sql`${taskRuns.generation} + 1`,
          attempts: 0,
          error: null,
          errorKind: null,
          jobId: null,
          workerId: null,
          gateDecidedBy: null,
          startedAt: null,
          finishedAt: null,
        })
        .where(and(eq(taskRuns.runId, runId), inArray(taskRuns.taskId, again.slice(i, i + 1000))));
    }
    await appendRunEvents(tx, runId, [{ kind: 'task_retried', taskId, actor: principal.username, detail: { with: again.slice(1), generation: (records.get(taskId)?.generation ?? 1) + 1 } }]);
    const next = await refreshRunState(tx, runId, principal.username);
    await scheduleReady(handle, tx, runId, tasks, again);
    return next;
  });
}

/** The most an approver may write as a task's input at its gate: what a resolved input may be. */
export const MAX_GATE_INPUT_BYTES = 2_000_000;

/** What an approve may carry: the input the approver wrote in place of the resolved one. */
export interface GateEdit {
  input: unknown;
}

/** A gate decision's passkey signature and the relying party the request addressed, to check it against. */
export interface GateSigning {
  signature?: DecisionSignature;
  relyingParty?: RelyingParty;
}

/** What a gate decision binds: the run's approved plan and hashes, the gate, and the hash of the input approved (null for a reject). */
function gateBinding(run: { id: string; planId: string; revision: number; contentHash: string; resourcesHash: string }, taskId: string, decision: 'approve' | 'reject', inputHash: string | null): ExpectedDecision {
  return {
    plan_id: run.planId,
    revision: run.revision,
    content_hash: run.contentHash,
    resources_hash: run.resourcesHash,
    decision,
    gate: { run_id: run.id, task_id: taskId, input_hash: inputHash },
  };
}

/**
 * Starts signing a gate decision with a passkey: what the decision will bind (the input as
 * shown, or `edit`'s) and the WebAuthn options over it. Read only; decideGate checks it all again.
 */
export async function gateSigningOptions(handle: DatabaseHandle, principal: Principal, relyingParty: RelyingParty, runId: string, taskId: string, decision: 'approve' | 'reject', edit?: GateEdit) {
  const { db } = handle;
  const [run] = await db.select().from(runs).where(eq(runs.id, runId));
  if (!run) throw notFound(`Run "${runId}"`);
  const [record] = await db.select().from(taskRuns).where(and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, taskId)));
  if (!record) throw notFound(`Task "${taskId}" in run ${runId}`);
  const inputHash = decision === 'approve' ? sha256Of(canonicalJson(edit ? (edit.input ?? null) : (record.input ?? null))) : null;
  return signingOptions(db, principal, relyingParty, gateBinding(run, taskId, decision, inputHash));
}

/**
 * A person's decision at a gate: approve releases the task, reject fails it (its
 * dependents stay blocked and the run needs a replan). Four-eyes is the plan's rule
 * (gate-deciders.ts): not the starter, not who shaped the revision, no sock puppet of
 * either, no service account. Each gate is decided on its own. An approve records the
 * input it approved and its hash; with `edit` (unless the task sets
 * `parameters.gate_allows_edit: false`) that is the approver's input, and exactly that is sent.
 * With `signing.signature` the decision is passkey-signed over that input's hash; without one
 * it is refused while PLANGATE_REQUIRE_SIGNED_APPROVALS is on.
 */
export async function decideGate(
  handle: DatabaseHandle,
  principal: Principal,
  runId: string,
  taskId: string,
  decision: 'approve' | 'reject',
  comment = '',
  edit?: GateEdit,
  signing: GateSigning = {},
): Promise<RunState> {
  // An automation's token decides no gate, whichever run it names: refused before any run is looked up.
  const automation = automationRefusal(principal);
  if (automation) throw new AppError('forbidden', 403, automation);
  if (edit && decision !== 'approve') throw new AppError('bad_request', 400, 'Only an approve may carry an edited input');
  const editedJson = edit ? canonicalJson(edit.input ?? null) : null;
  if (editedJson && Buffer.byteLength(editedJson) > MAX_GATE_INPUT_BYTES) {
    throw new AppError('bad_request', 400, `The edited input is over ${MAX_GATE_INPUT_BYTES / 1_000_000} MB`);
  }
  await getJobQueue(handle);
  const context = await loadRunContext(handle.db, runId);
  const tasks = context.document.plan.planned_tasks;
  return handle.db.transaction(async (tx) => {
    const run = await lockRunRow(tx, runId);
    await assertMayDecideGate(tx, run, principal);
    const [record] = await tx.select().from(taskRuns).where(and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, taskId))).for('update');
    if (!record) throw notFound(`Task "${taskId}" in run ${runId}`);
    const task = context.tasks.get(taskId);
    if (!task || !requiresApproval(task)) throw refuse(`Task ${taskId} has no gate (parameters.requires_approval is not set)`);
    if (record.state !== 'awaiting_approval') throw refuse(`Task ${taskId} is ${record.state.replace('_', ' ')}, not waiting at its gate`, { state: record.state });
    if (edit && !gateAllowsEdit(task)) throw refuse(`Task ${taskId} sets parameters.gate_allows_edit: false: its input may be approved or rejected, not edited`);
    const approved = decision === 'approve' ? (edit ? (edit.input ?? null) : (record.input ?? null)) : null;
    const inputHash = decision === 'approve' ? sha256Of(editedJson ?? canonicalJson(approved)) : null;
    const edited = editedJson !== null && editedJson !== canonicalJson(record.input ?? null);
    const signed = await acceptDecisionSignature(tx, principal, signing.signature, gateBinding(run, taskId, decision, inputHash), signing.relyingParty);
    // The decision is for this generation only: a retry of the task needs a new one.
    await tx.insert(gateDecisions).values({ runId, taskId, generation: record.generation, decision, decidedBy: principal.username, comment, input: approved, inputHash, edited });
    if (signed) await recordDecisionSignature(tx, { runId, taskId, generation: record.generation }, signed);
    if (decision === 'approve') {
      await updateTaskRun(tx, runId, taskId, { state: 'pending', gateDecidedBy: principal.username, ...(edited ? { input: approved } : {}) });
    } else {
      await updateTaskRun(tx, runId, taskId, {
        state: 'failed',
        gateDecidedBy: principal.username,
        error: `Rejected at its gate by ${principal.username}${comment ? `: ${comment}` : ''}`,
        errorKind: 'rejected',
        finishedAt: new Date(),
      });
    }
    const kind = decision === 'approve' ? 'gate_approved' : 'gate_rejected';
    const facts = { generation: record.generation, ...(comment ? { comment } : {}), ...(inputHash ? { input_hash: inputHash, edited } : {}), ...(signed ? { passkey: signed.kid } : {}) };
    await appendRunEvent(tx, runId, { kind, taskId, actor: principal.username, detail: facts });
    await appendAudit(tx, { kind, actor: principal.username, planId: run.planId, revision: run.revision, contentHash: run.contentHash, detail: { run_id: runId, task_id: taskId, comment, ...facts } });
    // Decided: the other deciders' inbox items about this gate are done too.
    await tx
      .update(inboxItems)
      .set({ readAt: new Date() })
      .where(and(eq(inboxItems.kind, 'gate'), eq(inboxItems.runId, runId), eq(inboxItems.taskId, taskId), isNull(inboxItems.readAt)));
    if (decision === 'approve') await scheduleReady(handle, tx, runId, tasks, [taskId]);
    else await blockDependents(tx, runId, tasks, [taskId]);
    return refreshRunState(tx, runId, principal.username);
  });
}

/**
 * A result reported later by an executor that answered 202 (the caller verified its signature,
 * which covers `at`). Taken once, and only for the attempt in flight: a result for an earlier
 * attempt or generation, or a second one, is refused and changes nothing.
 */
export async function reportTaskResult(
  handle: DatabaseHandle,
  runId: string,
  taskId: string,
  at: { generation: number; attempt: number },
  result: { state: 'succeeded'; output: unknown } | { state: 'failed'; error: string },
): Promise<RunState> {
  return handle.db.transaction(async (tx) => {
    await lockRunRow(tx, runId);
    const [record] = await tx.select().from(taskRuns).where(and(eq(taskRuns.runId, runId), eq(taskRuns.taskId, taskId))).for('update');
    if (!record) throw notFound(`Task "${taskId}" in run ${runId}`);
    if (record.state !== 'running') throw refuse(`Task ${taskId} is ${record.state}, not waiting for a result`, { state: record.state });
    if (record.generation !== at.generation || record.attempts !== at.attempt) {
      throw refuse(`The result is for attempt ${at.generation}.${at.attempt} of task ${taskId}, but attempt ${record.generation}.${record.attempts} is in flight`, {
        attempt: `${record.generation}.${record.attempts}`,
      });
    }
    if (result.state === 'succeeded') {
      await updateTaskRun(tx, runId, taskId, { state: 'succeeded', output: result.output, error: null, finishedAt: new Date() });
      await appendRunEvent(tx, runId, { kind: 'task_succeeded', taskId, detail: { reported: true } });
    } else {
      await updateTaskRun(tx, runId, taskId, { state: 'failed', error: result.error.slice(0, 2000), finishedAt: new Date() });
      await appendRunEvent(tx, runId, { kind: 'task_failed', taskId, detail: { reported: true, error: result.error.slice(0, 2000) } });
    }
    return refreshRunState(tx, runId);
  });
}
