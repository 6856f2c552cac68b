import 'server-only';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { z } from 'zod';
import { llmConfigFromEnv, UNUSED_API_KEY } from '@/lib/llm/llm-config';
import { resourceKey } from '@/lib/registry';
import type { OpenAiEndpoint } from '@/lib/registry/endpoint';
import { guardCall, statusFailure, type Env } from './call-guard';
import { dispatchSecret } from './dispatch-secrets';
import { DispatchError, type DispatchOutcome, type DispatchRequest } from './dispatch-types';

// An LLM task: one chat completion, the task's instructions as the system message and its
// input as JSON in the user message. With an output schema the model is asked for JSON in
// that shape (response_format json_schema) and the answer is parsed; without, the text is the
// output. An LLM with no endpoint, or an endpoint without a URL, uses the planner's own
// configured model (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL).

type Endpoint = z.infer<typeof OpenAiEndpoint>;

interface Target {
  baseURL: string;
  /** The operator's LLM_BASE_URL rather than an endpoint's URL: exempt from the address allow-list. */
  trusted: boolean;
  apiKey: string;
  model: string;
  temperature?: number;
}

function targetFor(request: DispatchRequest, endpoint: Endpoint, env: Env): Target {
  const resourceName = request.resource ? resourceKey(request.resource) : null;
  let configured;
  try {
    configured = llmConfigFromEnv(env);
  } catch (error) {
    throw new DispatchError(`The configured LLM is unusable: ${(error as Error).message}`, false);
  }
  const apiKey = endpoint.api_key_env ? dispatchSecret(endpoint.api_key_env, 'api_key_env', resourceName ?? request.taskId, env) : undefined;
  if (endpoint.url) {
    const model = endpoint.model ?? resourceName;
    if (!model) throw new DispatchError(`Task ${request.taskId} names no model for ${endpoint.url}`, false);
    return { baseURL: endpoint.url, trusted: false, apiKey: apiKey ?? UNUSED_API_KEY, model };
  }
  if (!configured) {
    throw new DispatchError(
      `LLM task ${request.taskId} needs an LLM: give the resource an endpoint URL, or configure LLM_BASE_URL and LLM_MODEL`,
      false,
    );
  }
  return { baseURL: configured.baseURL, trusted: true, apiKey: apiKey ?? configured.apiKey, model: endpoint.model ?? configured.model, temperature: configured.temperature };
}

/** The JSON Schema the task's output must follow: its own `parameters.output_schema`, else the resource's. */
export function outputSchemaOf(request: DispatchRequest): Record<string, unknown> | undefined {
  const isSchema = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  const own = request.task.parameters?.output_schema;
  if (isSchema(own)) return own;
  const resourceSchema = request.resource && 'output_schema' in request.resource ? request.resource.output_schema : undefined;
  return isSchema(resourceSchema) ? resourceSchema : undefined;
}

export async function dispatchOpenAi(request: DispatchRequest, endpoint: Endpoint, env: Env = process.env): Promise<DispatchOutcome> {
  const target = targetFor(request, endpoint, env);
  const call = guardCall(request, { url: `${target.baseURL.replace(/\/+$/, '')}/chat/completions`, protocol: 'LLM', trusted: target.trusted });
  const schema = outputSchemaOf(request);
  const client = new OpenAI({
    baseURL: target.baseURL,
    apiKey: target.apiKey,
    maxRetries: 0,
    timeout: call.timeoutMs,
    fetch: call.fetch,
    defaultHeaders: { 'Idempotency-Key': request.idempotencyKey },
    // Only the endpoint and the LLM_* settings count; ignore the SDK's OPENAI_* environment fallbacks.
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
  });
  const body: ChatCompletionCreateParamsNonStreaming = {
    model: target.model,
    messages: [
      { role: 'system', content: request.task.instructions || request.task.description || 'Complete the task for the given input.' },
      { role: 'user', content: JSON.stringify(request.input ?? null) },
    ],
    ...(target.temperature === undefined ? {} : { temperature: target.temperature }),
    ...(schema ? { response_format: { type: 'json_schema', json_schema: { name: 'task_output', schema, strict: false } } } : {}),
  };

  let content: string | null | undefined;
  try {
    const completion = await client.chat.completions.create(body, { signal: call.signal });
    if (!completion?.choices?.length) throw new DispatchError(`The LLM endpoint ${call.endpoint} answered without any choices`);
    content = completion.choices[0].message?.content;
  } catch (error) {
    if (error instanceof OpenAI.APIError && typeof error.status === 'number') throw statusFailure(`The LLM endpoint ${call.endpoint}`, error.status);
    throw call.failure(error);
  }

  const text = content ?? '';
  if (!schema) return { state: 'succeeded', output: text };
  try {
    return { state: 'succeeded', output: JSON.parse(text) };
  } catch {
    throw new DispatchError(`The LLM at ${call.endpoint} was asked for JSON (the task's output schema) and answered text that is not JSON`);
  }
}
