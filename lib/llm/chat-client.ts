/**
 * A thin wrapper over the official `openai` SDK for any OpenAI-compatible
 * /v1/chat/completions endpoint. One call, one answer string; retries after unusable
 * answers live in structured-output.ts, so the SDK's own retries are switched off.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { DEFAULT_LLM_TIMEOUT_MS, UNUSED_API_KEY, type LlmConfig } from './llm-config';
import { redactUrl } from './redact-url';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The JSON schema the answer should follow; sent as response_format when the config allows. */
export interface ChatResponseFormat {
  /** a-z, A-Z, 0-9, _ and -, at most 64 characters (other characters are replaced). */
  name: string;
  schema: Record<string, unknown>;
}

export interface ChatOptions {
  signal?: AbortSignal;
}

/** The endpoint could not be reached, timed out, or answered with an HTTP error. */
export class LlmRequestError extends Error {
  readonly endpoint: string;
  /** The HTTP status, when the endpoint answered. */
  readonly status?: number;

  constructor(message: string, endpoint: string, status?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LlmRequestError';
    this.endpoint = endpoint;
    this.status = status;
  }
}

type ResponseFormatParam = NonNullable<ChatCompletionCreateParamsNonStreaming['response_format']>;

/** The endpoint as messages name it: credentials and query are left out, they may be secrets. */
export function chatEndpoint(config: Pick<LlmConfig, 'baseURL'>): string {
  return redactUrl(`${config.baseURL.replace(/\/+$/, '')}/chat/completions`);
}

function schemaName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return cleaned || 'answer';
}

/** The response_format for `config.structuredOutput`, or undefined when none is to be sent. */
export function responseFormatFor(config: Pick<LlmConfig, 'structuredOutput'>, format?: ChatResponseFormat): ResponseFormatParam | undefined {
  if (!format) return undefined;
  switch (config.structuredOutput) {
    case 'json_schema':
      return { type: 'json_schema', json_schema: { name: schemaName(format.name), schema: format.schema, strict: false } };
    case 'json_object':
      return { type: 'json_object' };
    case 'off':
      return undefined;
  }
}

function causeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; current && depth < 4; depth += 1) {
    if (current instanceof Error) {
      const code = (current as Error & { code?: unknown }).code;
      parts.push(typeof code === 'string' && !current.message.includes(code) ? `${current.message} (${code})` : current.message);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.filter(Boolean).join(': ');
}

function toRequestError(error: unknown, config: LlmConfig): Error {
  const endpoint = chatEndpoint(config);
  if (error instanceof OpenAI.APIUserAbortError) {
    return new LlmRequestError(`The request to the LLM endpoint ${endpoint} was aborted.`, endpoint, undefined, { cause: error });
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    const timeout = config.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    return new LlmRequestError(`The LLM endpoint ${endpoint} did not answer within ${timeout} ms.`, endpoint, undefined, { cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const detail = causeChain(error) || error.message;
    return new LlmRequestError(`Could not reach the LLM endpoint ${endpoint}: ${detail}`, endpoint, undefined, { cause: error });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const status = error.status;
    const detail = error.message.startsWith(`${status} `) ? error.message.slice(`${status} `.length) : error.message;
    return new LlmRequestError(`The LLM endpoint ${endpoint} answered HTTP ${status}: ${detail}`, endpoint, status, { cause: error });
  }
  if (error instanceof OpenAI.OpenAIError) {
    return new LlmRequestError(`The LLM request to ${endpoint} failed: ${error.message}`, endpoint, undefined, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

function clientFor(config: LlmConfig): OpenAI {
  return new OpenAI({
    baseURL: config.baseURL,
    apiKey: config.apiKey || UNUSED_API_KEY,
    maxRetries: 0,
    timeout: config.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    // Only the LLM_* settings count; ignore the SDK's OPENAI_* environment fallbacks.
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
  });
}

/**
 * Ask the model once and return the first choice's message content ('' when it has none).
 * When `responseFormat` is given, asks for structured output as `config.structuredOutput`
 * says; an endpoint that rejects response_format with HTTP 400 is asked the same thing
 * again without it (not counted as a retry). Failures throw LlmRequestError.
 */
export async function chat(
  config: LlmConfig,
  messages: ChatMessage[],
  responseFormat?: ChatResponseFormat,
  options: ChatOptions = {},
): Promise<string> {
  const client = clientFor(config);
  const base: ChatCompletionCreateParamsNonStreaming = {
    model: config.model,
    messages: messages.map(({ role, content }) => ({ role, content })),
    temperature: config.temperature,
  };
  const format = responseFormatFor(config, responseFormat);
  const request = (body: ChatCompletionCreateParamsNonStreaming) => client.chat.completions.create(body, { signal: options.signal });

  let completion;
  try {
    completion = await request(format ? { ...base, response_format: format } : base);
  } catch (error) {
    if (!(format && error instanceof OpenAI.APIError && error.status === 400)) throw toRequestError(error, config);
    try {
      completion = await request(base);
    } catch (fallbackError) {
      const converted = toRequestError(fallbackError, config);
      converted.message += ' (asked again without response_format, which it had rejected with HTTP 400)';
      throw converted;
    }
  }

  const choice = completion?.choices?.[0];
  if (!choice) {
    const endpoint = chatEndpoint(config);
    throw new LlmRequestError(`The LLM endpoint ${endpoint} answered without any choices.`, endpoint);
  }
  return choice.message?.content ?? '';
}
