/**
 * Where the planners' LLM lives and how to talk to it, read from the environment.
 *
 * Any OpenAI-compatible endpoint works (OpenAI, vLLM, llama.cpp, Ollama, LM Studio, …):
 *   LLM_BASE_URL           e.g. http://127.0.0.1:11434/v1          (required)
 *   LLM_MODEL              e.g. qwen2.5:7b-instruct                 (required)
 *   LLM_API_KEY            may be empty for local servers           (default 'unused')
 *   LLM_TEMPERATURE        0..2                                     (default 0.2)
 *   LLM_MAX_RETRIES        retries after an unusable answer, 0..10  (default 2)
 *   LLM_STRUCTURED_OUTPUT  json_schema | json_object | off          (default json_schema)
 *   LLM_TIMEOUT_MS         per-request timeout in milliseconds      (default 120000)
 */

export type StructuredOutputMode = 'json_schema' | 'json_object' | 'off';

export const STRUCTURED_OUTPUT_MODES: readonly StructuredOutputMode[] = ['json_schema', 'json_object', 'off'];

export interface LlmConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  temperature: number;
  /** Retries after an unusable answer; the model is asked at most maxRetries + 1 times. */
  maxRetries: number;
  structuredOutput: StructuredOutputMode;
  /** Per-request timeout in milliseconds (default DEFAULT_LLM_TIMEOUT_MS). */
  timeoutMs?: number;
}

export const DEFAULT_LLM_TEMPERATURE = 0.2;
export const DEFAULT_LLM_MAX_RETRIES = 2;
export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
/** The SDK refuses an empty key; local servers ignore whatever is sent. */
export const UNUSED_API_KEY = 'unused';

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function readNumber(env: Env, name: string, fallback: number, min: number, max: number, integer: boolean): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

/**
 * The LLM settings from `env`, or null when no LLM is configured (LLM_BASE_URL or LLM_MODEL unset).
 * Throws an Error naming the variable when a set value is malformed.
 */
export function llmConfigFromEnv(env: Env): LlmConfig | null {
  const baseURL = read(env, 'LLM_BASE_URL');
  const model = read(env, 'LLM_MODEL');
  if (!baseURL || !model) return null;

  let parsedUrl: URL;
  try {
    parsedUrl = new URL(baseURL);
  } catch {
    throw new Error(`LLM_BASE_URL must be an http(s) URL such as http://127.0.0.1:11434/v1, got "${baseURL}".`);
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') {
    throw new Error(`LLM_BASE_URL must be an http(s) URL such as http://127.0.0.1:11434/v1, got "${baseURL}".`);
  }

  const mode = read(env, 'LLM_STRUCTURED_OUTPUT') ?? 'json_schema';
  if (!(STRUCTURED_OUTPUT_MODES as readonly string[]).includes(mode)) {
    throw new Error(`LLM_STRUCTURED_OUTPUT must be one of ${STRUCTURED_OUTPUT_MODES.join(', ')}, got "${mode}".`);
  }

  return {
    baseURL: baseURL.replace(/\/+$/, ''),
    apiKey: read(env, 'LLM_API_KEY') ?? UNUSED_API_KEY,
    model,
    temperature: readNumber(env, 'LLM_TEMPERATURE', DEFAULT_LLM_TEMPERATURE, 0, 2, false),
    maxRetries: readNumber(env, 'LLM_MAX_RETRIES', DEFAULT_LLM_MAX_RETRIES, 0, 10, true),
    structuredOutput: mode as StructuredOutputMode,
    timeoutMs: readNumber(env, 'LLM_TIMEOUT_MS', DEFAULT_LLM_TIMEOUT_MS, 1, 3_600_000, true),
  };
}
