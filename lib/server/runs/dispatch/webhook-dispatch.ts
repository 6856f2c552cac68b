import 'server-only';
import type { z } from 'zod';
import type { WebhookEndpoint } from '@/lib/registry/endpoint';
import { resourceKey } from '@/lib/registry';
import { ATTEMPT_HEADER, IDEMPOTENCY_HEADER, signedHeaders } from '../../webhooks/signature';
import { guardCall, statusFailure } from './call-guard';
import { dispatchSecret } from './dispatch-secrets';
import { DispatchError, type DispatchOutcome, type DispatchRequest } from './dispatch-types';

// Any executor Plangate has no SDK for (a DSL workflow engine, an in-house agent or tool):
// one signed POST. The executor answers the result at once (2xx with JSON), or 202 and posts
// it later to `result_url`, signed with the same secret over the result's own signing string
// (lib/server/webhooks/signature.ts), echoing the attempt it was sent in X-Plangate-Attempt:
// "<generation>.<attempt>", so a result names one attempt of one generation and no other.

/** The attempt as X-Plangate-Attempt carries it, and as a result must be signed for. */
export function attemptId(request: Pick<DispatchRequest, 'generation' | 'attempt'>): string {
  return `${request.generation}.${request.attempt}`;
}

/** What a webhook executor receives. */
export interface WebhookPayload {
  run_id: string;
  task_id: string;
  /** An operator's retry starts a new generation. */
  generation: number;
  attempt: number;
  task: DispatchRequest['task'];
  input: unknown;
  result_url: string;
}

export async function dispatchWebhook(request: DispatchRequest, endpoint: z.infer<typeof WebhookEndpoint>): Promise<DispatchOutcome> {
  const resourceName = request.resource ? resourceKey(request.resource) : request.taskId;
  const secret = dispatchSecret(endpoint.secret_env, 'secret_env', resourceName);
  const payload: WebhookPayload = {
    run_id: request.runId,
    task_id: request.taskId,
    generation: request.generation,
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
      headers: {
        'content-type': 'application/json',
        [IDEMPOTENCY_HEADER]: request.idempotencyKey,
        [ATTEMPT_HEADER]: attemptId(request),
        ...signedHeaders(secret, body),
      },
      body,
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw call.failure(error);
  }

  if (status === 202) return { state: 'accepted' };
  if (status < 200 || status > 299) throw statusFailure(`Webhook ${call.endpoint}`, status);
  if (!text.trim()) return { state: 'succeeded', output: null };
  try {
    return { state: 'succeeded', output: JSON.parse(text) };
  } catch {
    throw new DispatchError(`Webhook ${call.endpoint} answered HTTP ${status} with a body that is not JSON`);
  }
}
