import 'server-only';
import { TaskResultReport } from '@/lib/api/run-schemas';
import type { RunState } from '@/lib/runs/run-states';
import type { DatabaseHandle } from '../db/client';
import { AppError, notFound } from '../errors';
import { parseBody, parseJsonText } from '../http/read-json';
import { verifyWebhook } from './dispatch/webhook-signature';
import { reportTaskResult } from './run-control';
import { approvedResource, loadRunContext } from './run-records';

// An executor that answered a webhook with 202 reports the task's result later, signed with
// the secret of the resource the task was sent to (the approved snapshot's endpoint), so
// only that executor can settle that task.

const unsigned = (reason: string) => new AppError('unauthenticated', 401, `The result is not signed for this task: ${reason}`);

export async function acceptSignedResult(handle: DatabaseHandle, runId: string, taskId: string, headers: Headers, text: string): Promise<RunState> {
  const context = await loadRunContext(handle.db, runId);
  const task = context.tasks.get(taskId);
  if (!task) throw notFound(`Task "${taskId}" in run ${runId}`);
  const endpoint = approvedResource(context, task)?.endpoint;
  if (endpoint?.protocol !== 'webhook') throw unsigned('its resource is not reached through a webhook');
  const secret = process.env[endpoint.secret_env];
  if (!secret) throw unsigned(`the secret (${endpoint.secret_env}) is not configured on this server`);
  const verdict = verifyWebhook(secret, { timestamp: headers.get('x-plangate-timestamp'), signature: headers.get('x-plangate-signature') }, text);
  if (!verdict.ok) throw unsigned(verdict.reason);
  const report = parseBody(TaskResultReport, parseJsonText(text, 'result'), 'result');
  return reportTaskResult(handle, runId, taskId, report);
}
