/**
 * Ask the model for a JSON answer that a zod schema (and an optional semantic check, such
 * as "every tool_id is a known tool") accepts. An unusable answer — not JSON, failing the
 * schema, or failing the check — is fed back to the model with what was wrong, up to
 * config.maxRetries times; then LlmAnswerError lists what went wrong on every attempt.
 */
import { z } from 'zod';
import { chat, type ChatMessage, type ChatOptions } from './chat-client';
import { extractJson } from './extract-json';
import type { LlmConfig } from './llm-config';
import { formatPath } from '@/lib/plan/json-path';

export interface StructuredAttempt {
  /** 1-based attempt number. */
  n: number;
  /** What was wrong with this attempt's answer; undefined when it was usable. */
  error?: string;
}

export interface GenerateStructuredOptions<T> {
  config: LlmConfig;
  system: string;
  user: string;
  schema: z.ZodType<T>;
  /** Names the response_format schema (a-z, A-Z, 0-9, _ and -). */
  schemaName: string;
  /** Problems with a schema-valid value, e.g. 'Unknown tool "x"; known tools: a, b'. */
  check?: (value: T) => string[];
  onAttempt?: (attempt: StructuredAttempt) => void;
  /** Append the JSON schema to the system prompt (default true), so models without response_format support still see it. */
  schemaInPrompt?: boolean;
  signal?: ChatOptions['signal'];
}

export interface GenerateStructuredResult<T> {
  value: T;
  /** How many times the model was asked (1 when the first answer was usable). */
  attempts: number;
}

/** The model's answers stayed unusable after every attempt. */
export class LlmAnswerError extends Error {
  /** One line per attempt saying what was wrong, e.g. 'schema: tasks[0].tool_id: Invalid input'. */
  readonly attempts: string[];
  /** The raw answers, in order. */
  readonly answers: string[];

  constructor(attempts: string[], answers: string[]) {
    const list = attempts.map((problem, index) => `${index + 1}) ${problem}`).join('; ');
    const count = attempts.length === 1 ? '1 attempt' : `${attempts.length} attempts`;
    super(`The model's answer was unusable after ${count}: ${list}`);
    this.name = 'LlmAnswerError';
    this.attempts = attempts;
    this.answers = answers;
  }
}

const MAX_LISTED_ISSUES = 12;
const NOT_JSON_PREFIX = 'The answer is not JSON: ';

function listed(items: string[]): string[] {
  if (items.length <= MAX_LISTED_ISSUES) return items;
  return [...items.slice(0, MAX_LISTED_ISSUES), `… and ${items.length - MAX_LISTED_ISSUES} more`];
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0].toLowerCase() + text.slice(1) : text;
}

/** What was wrong, as a one-line summary (for LlmAnswerError) and as feedback for the model. */
interface Problem {
  summary: string;
  feedback: string;
}

function notJson(error: unknown): Problem {
  const message = error instanceof Error ? error.message : String(error);
  const detail = message.startsWith(NOT_JSON_PREFIX) ? message.slice(NOT_JSON_PREFIX.length) : message;
  return { summary: `not JSON: ${detail}`, feedback: `it is not JSON: ${detail}` };
}

function schemaProblem(error: z.ZodError): Problem {
  const issues = listed(error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`));
  return {
    summary: `schema: ${issues.join(', ')}`,
    feedback: `it does not match the required schema:\n${issues.map((issue) => `- ${issue}`).join('\n')}`,
  };
}

function checkProblem(problems: string[]): Problem {
  const items = listed(problems);
  return {
    summary: items.map(lowerFirst).join(', '),
    feedback: `${items.length === 1 ? 'there is a problem' : 'there are problems'} with its content:\n${items.map((problem) => `- ${problem}`).join('\n')}`,
  };
}

/** The response_format schema for `schema`: its input side, with unrepresentable parts left open. */
export function jsonSchemaFor(schema: z.ZodType): Record<string, unknown> {
  const jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete jsonSchema.$schema;
  return jsonSchema;
}

export async function generateStructured<T>(options: GenerateStructuredOptions<T>): Promise<GenerateStructuredResult<T>> {
  const { config, schema, schemaName, check, onAttempt } = options;
  const jsonSchema = jsonSchemaFor(schema);
  const system =
    options.schemaInPrompt === false
      ? options.system
      : `${options.system}\n\nAnswer with a single JSON value only, with no prose around it, matching this JSON schema:\n${JSON.stringify(jsonSchema)}`;
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: options.user },
  ];
  const maxAttempts = Math.max(0, Math.floor(config.maxRetries)) + 1;
  const summaries: string[] = [];
  const answers: string[] = [];

  for (let n = 1; n <= maxAttempts; n += 1) {
    const answer = await chat(config, messages, { name: schemaName, schema: jsonSchema }, { signal: options.signal });
    answers.push(answer);

    let problem: Problem | undefined;
    let value: T | undefined;
    let json: unknown;
    try {
      json = extractJson(answer);
    } catch (error) {
      problem = notJson(error);
    }
    if (!problem) {
      const parsed = schema.safeParse(json);
      if (!parsed.success) problem = schemaProblem(parsed.error);
      else {
        value = parsed.data;
        const problems = check ? check(parsed.data) : [];
        if (problems.length > 0) problem = checkProblem(problems);
      }
    }

    if (!problem) {
      onAttempt?.({ n });
      return { value: value as T, attempts: n };
    }

    summaries.push(problem.summary);
    onAttempt?.({ n, error: problem.summary });
    messages.push(
      { role: 'assistant', content: answer || '(empty answer)' },
      { role: 'user', content: `Your previous answer was invalid: ${problem.feedback}\nAnswer again with JSON only.` },
    );
  }

  throw new LlmAnswerError(summaries, answers);
}
