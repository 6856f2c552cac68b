'use server';

import { headers } from 'next/headers';
import { z } from 'zod';
import { GateApproveRequest, StartRunRequest } from '@/lib/api/run-schemas';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { relyingPartyOf } from '@/lib/server/passkeys/relying-party';
import { cancelRun, decideGate, gateSigningOptions, pauseRun, resumeRun, retryTask } from '@/lib/server/runs/run-control';
import { startRun } from '@/lib/server/runs/start-run';

// What people do to runs from the plan page and the run view; the services check the
// approval, the run's state and four-eyes, the roles are checked here.

const StartInput = z.strictObject({ planId: z.string().min(1), request: StartRunRequest });

/** Runs the approved head revision (editors); answers the new run's id. */
export async function startRunAction(input: z.input<typeof StartInput>) {
  return runAction('editor', StartInput, input, async ({ planId, request }, principal) => startRun(await getDatabase(), principal, planId, request));
}

const RunRef = z.strictObject({ runId: z.string().min(1).max(100) });
const CONTROLS = { cancel: cancelRun, pause: pauseRun, resume: resumeRun } as const;
const ControlInput = RunRef.extend({ control: z.enum(['cancel', 'pause', 'resume']) });

/** Cancel, pause or resume a run (editors). */
export async function controlRunAction(input: z.input<typeof ControlInput>) {
  return runAction('editor', ControlInput, input, async ({ runId, control }, principal) => CONTROLS[control](await getDatabase(), principal, runId));
}

const TaskRef = RunRef.extend({ taskId: z.string().min(1).max(200) });

/** Runs a failed or cancelled task again, with the tasks it blocked (editors). */
export async function retryTaskAction(input: z.input<typeof TaskRef>) {
  return runAction('editor', TaskRef, input, async ({ runId, taskId }, principal) => retryTask(await getDatabase(), principal, runId, taskId));
}

const DecideInput = TaskRef.extend({ decision: z.enum(['approve', 'reject']), request: GateApproveRequest });

/** Approves (maybe with an edited input) or rejects a task waiting at its gate (approvers other than whoever started the run). */
export async function decideGateAction(input: z.input<typeof DecideInput>) {
  return runAction('approver', DecideInput, input, async ({ runId, taskId, decision, request }, principal) => {
    const signing = request.signature ? { signature: request.signature, relyingParty: relyingPartyOf(await headers()) } : {};
    return decideGate(await getDatabase(), principal, runId, taskId, decision, request.comment, request.input === undefined ? undefined : { input: request.input }, signing);
  });
}

const SignInput = TaskRef.extend({ decision: z.enum(['approve', 'reject']), input: z.unknown().optional() });

/** Starts signing a gate decision with a passkey: what it binds (the input shown, or `input`) and the WebAuthn options over it. */
export async function gateSigningOptionsAction(input: z.input<typeof SignInput>) {
  return runAction('approver', SignInput, input, async ({ runId, taskId, decision, input: edited }, principal) =>
    gateSigningOptions(await getDatabase(), principal, relyingPartyOf(await headers()), runId, taskId, decision, edited === undefined ? undefined : { input: edited }),
  );
}
