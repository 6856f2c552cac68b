import 'server-only';
import type { z } from 'zod';
import type { WebhookEndpoint } from '@/lib/registry/endpoint';
import { resourceKey } from '@/lib/registry';
import { credentialFromEnv, guardCall, isRetryableStatus } from './call-guard';
import { DispatchError, type DispatchOutcome, type DispatchRequest } from './dispatch-types';
import { IDEMPOTENCY_HEADER, signedWebhookHeaders } from './webhook-signature';

// Any executor Plangate has no SDK for (a DSL workflow engine, an in-house agent or tool):
// one signed POST. The executor answers the result at once (2xx with JSON), or 202 and posts
// it later to `result_url`, signed the same way.

/** What a webhook executor receives. */
export interface WebhookPayload {
  run_id: string;
  task_id: string;
  attempt: number;
  task: DispatchRequest['task'];
  input: unknown;
  result_url: string;
}

/** The start of an error answer, for the task's error message. */
const ERROR_EXCERPT_CHARS = 300;

export async function dispatchWebhook(request: DispatchRequest, endpoint: z.infer<typeof WebhookEndpoint>): Promise<DispatchOutcome> {
  const resourceName = request.resource ? resourceKey(request.resource) : request.taskId;
  const secret = credentialFromEnv(endpoint.secret_env, 'secret_env', resourceName);
  const payload: WebhookPayload = {
    run_id: request.runId,
    task_id: request.taskId,
    attempt: request.attempt,
    task: request.task,
    input: request.input,
    result_url: request.resultUrl,
  };
  const body = JSON.stringify(payload);
  const call = guardCall(request, { url: endpoint.url, protocol: 'webhook' });

  let status: number;
  let text: string;
  try {
    const response = await call.fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: request.idempotencyKey, ...signedWebhookHeaders(secret, body) },
      body,
      redirect: 'error',
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw call.failure(error);
  }

  if (status === 202) return { state: 'accepted' };
  if (status < 200 || status > 299) {
    const excerpt = text.length > ERROR_EXCERPT_CHARS ? `${text.slice(0, ERROR_EXCERPT_CHARS)}…` : text;
    throw new DispatchError(`Webhook ${call.endpoint} answered HTTP ${status}${excerpt.trim() ? `: ${excerpt.trim()}` : ''}`, isRetryableStatus(status));
  }
  if (!text.trim()) return { state: 'succeeded', output: null };
  try {
    return { state: 'succeeded', output: JSON.parse(text) };
  } catch {
    throw new DispatchError(`Webhook ${call.endpoint} answered HTTP ${status} with a body that is not JSON`);
  }
}
