import 'server-only';
import { randomBytes } from 'node:crypto';
import { TaskResultReport } from '@/lib/api/run-schemas';
import type { RunState } from '@/lib/runs/run-states';
import type { DatabaseHandle } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { parseBody, parseJsonText, readJsonText } from '../platform/http/read-json';
import {
  ATTEMPT_HEADER,
  resultSigningString,
  SIGNATURE_HEADER,
  signatureFormatProblem,
  signatureMatches,
  TIMESTAMP_HEADER,
  timestampProblem,
} from '../webhooks/signature';
import { usableSecret } from './dispatch/dispatch-secrets';
import { MAX_OUTPUT_BYTES } from './dispatch/dispatch-types';
import { reportTaskResult } from './run-control';
import { approvedResource, loadRunContext } from './run-records';
import { resultUrlsFromEnv } from './run-workers';

// An executor that answered a webhook with 202 reports the task's result later to the
// result URL it was sent, signed with the secret of the resource the task was sent to (the
// approved snapshot's endpoint), over the method, the URL's path, the attempt, the timestamp
// and the body (lib/server/webhooks/signature.ts). So only that executor can settle that
// task, only for the attempt in flight, only once, and only within the clock-skew window.
//
// The order of the checks is what a prober sees: the headers first, then the size, then the
// signature, and only then anything about the run or the task. A run or task that does not
// exist answers exactly as a wrong signature does (401), so ids cannot be probed.

/** The output cap (MAX_OUTPUT_BYTES) plus room for the report's envelope and an error text. */
export const MAX_RESULT_BODY_BYTES = MAX_OUTPUT_BYTES + 16 * 1024;

const unsigned = (reason: string) => new AppError('unauthenticated', 401, `The result is not signed for this task: ${reason}`);
const MISMATCH = `${SIGNATURE_HEADER} does not match this run, task, attempt and body under the secret of the task's webhook`;

/** Signs nothing that exists: an unknown task costs the same HMAC as a known one. */
const DECOY_SECRET = randomBytes(32).toString('hex');

/** X-Plangate-Attempt: "<generation>.<attempt>", as webhook dispatch sends it. */
const ATTEMPT_FORMAT = /^([1-9]\d{0,8})\.([1-9]\d{0,8})$/;

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null) ?? 'null', 'utf8');

/** The secret results for `taskId` are signed with, or null when there is none to check against (for any reason). */
async function resultSecret(handle: DatabaseHandle, runId: string, taskId: string): Promise<string | null> {
  let context;
  try {
    context = await loadRunContext(handle.db, runId);
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
  const task = context.tasks.get(taskId);
  const endpoint = task ? approvedResource(context, task)?.endpoint : undefined;
  if (endpoint?.protocol !== 'webhook') return null;
  return usableSecret(endpoint.secret_env);
}

/** The path of the result URL Plangate sends for this task: what the executor signs. */
export function resultPath(runId: string, taskId: string, env: NodeJS.ProcessEnv = process.env): string {
  return new URL(resultUrlsFromEnv(env)(runId, taskId)).pathname;
}

export async function acceptSignedResult(handle: DatabaseHandle, runId: string, taskId: string, request: Request, nowMs = Date.now()): Promise<RunState> {
  const { headers } = request;
  const timestamp = headers.get(TIMESTAMP_HEADER);
  const signature = headers.get(SIGNATURE_HEADER);
  const attemptText = headers.get(ATTEMPT_HEADER);
  const malformed =
    timestampProblem(timestamp, nowMs) ??
    signatureFormatProblem(signature) ??
    (attemptText && ATTEMPT_FORMAT.test(attemptText) ? null : `${ATTEMPT_HEADER} must be the attempt the task was sent with ("<generation>.<attempt>")`);
  if (malformed) throw unsigned(malformed);

  // Capped before anything is parsed: an oversized result is refused as it streams in.
  let text: string;
  try {
    text = await readJsonText(request, 'result', MAX_RESULT_BODY_BYTES);
  } catch (error) {
    if (error instanceof AppError && error.status === 413) {
      throw new AppError('payload_too_large', 413, `The result is larger than ${MAX_RESULT_BODY_BYTES} bytes; a task's output may be at most ${MAX_OUTPUT_BYTES} bytes (MAX_OUTPUT_BYTES)`);
    }
    throw error;
  }

  const secret = await resultSecret(handle, runId, taskId);
  const signed = resultSigningString({ method: request.method, path: resultPath(runId, taskId), attempt: attemptText!, timestamp: timestamp!, body: text });
  const matches = signatureMatches(secret ?? DECOY_SECRET, signed, signature);
  if (!secret || !matches) throw unsigned(MISMATCH);

  const report = parseBody(TaskResultReport, parseJsonText(text, 'result'), 'result');
  if (report.state === 'succeeded' && bytesOf(report.output) > MAX_OUTPUT_BYTES) {
    throw new AppError('payload_too_large', 413, `The result's output is over ${MAX_OUTPUT_BYTES} bytes, the cap on a task's output (MAX_OUTPUT_BYTES)`);
  }
  const [, generation, attempt] = ATTEMPT_FORMAT.exec(attemptText!)!;
  return reportTaskResult(handle, runId, taskId, { generation: Number(generation), attempt: Number(attempt) }, report);
}
