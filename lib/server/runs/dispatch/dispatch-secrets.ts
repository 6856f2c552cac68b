import 'server-only';
import type { ResourceEndpoint } from '@/lib/registry';
import { DispatchError } from './dispatch-types';

// Which environment variables an endpoint's `_env` field may name: only those the operator
// lists in PLANGATE_DISPATCH_SECRETS, and never one of Plangate's own secrets (an editor who
// could name PLANGATE_AUDIT_KEY would have the server send it to their endpoint as a bearer
// token). Checked when the registry is written and again when a task is dispatched, because
// the list may have changed in between. What a refusal says never depends on whether the
// variable has a value: an editor cannot probe the server's environment through it.

export const DISPATCH_SECRETS_VAR = 'PLANGATE_DISPATCH_SECRETS';

/** Plangate's own secrets and connection settings: refused even when listed. */
const RESERVED = [/^PLANGATE_/, /^BETTER_AUTH_/, /DATABASE_URL$/, /^LLM_API_KEY$/, /^BEHAVIOR_CONTROLLER_/, /^PGPASSWORD$/];
const RESERVED_TEXT = 'PLANGATE_*, BETTER_AUTH_*, DATABASE_URL, LLM_API_KEY, BEHAVIOR_CONTROLLER_*';

type Env = Record<string, string | undefined>;

/** The `_env` fields of the endpoint protocols, as the registry names them. */
export const SECRET_FIELDS = ['api_key_env', 'token_env', 'secret_env'] as const;
export type SecretField = (typeof SECRET_FIELDS)[number];

export function isReservedSecretName(name: string): boolean {
  return RESERVED.some((pattern) => pattern.test(name));
}

/** The names PLANGATE_DISPATCH_SECRETS lists. */
export function listedSecretNames(env: Env = process.env): Set<string> {
  return new Set(
    (env[DISPATCH_SECRETS_VAR] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

/** Why an endpoint may not name `name` (the rule it breaks), or null when it may. */
export function secretNameProblem(name: string, env: Env = process.env): string | null {
  if (isReservedSecretName(name)) return `${name} is one of Plangate's own secrets (${RESERVED_TEXT}), which no endpoint may use`;
  if (!listedSecretNames(env).has(name)) return `${name} is not in ${DISPATCH_SECRETS_VAR}, the operator's list of variables endpoints may use`;
  return null;
}

/** Every `_env` field of `endpoint` that names a variable it may not, with the rule. */
export function endpointSecretProblems(endpoint: ResourceEndpoint | undefined, env: Env = process.env): { field: SecretField; problem: string }[] {
  if (!endpoint) return [];
  const named = endpoint as Partial<Record<SecretField, string>>;
  return SECRET_FIELDS.flatMap((field) => {
    const name = named[field];
    const problem = name === undefined ? null : secretNameProblem(name, env);
    return problem ? [{ field, problem }] : [];
  });
}

/**
 * The value of a variable an endpoint names, for a call about to be made. A name the rules
 * refuse, and a listed name without a value, fail the task the same way: not retryable, no
 * call made, and one message whether or not the variable is set.
 */
export function dispatchSecret(name: string, field: SecretField, resource: string, env: Env = process.env): string {
  if (isReservedSecretName(name)) throw new DispatchError(`${field} of resource ${resource}'s endpoint names ${name}: ${secretNameProblem(name, env)}`, false);
  const value = listedSecretNames(env).has(name) ? env[name] : undefined;
  if (!value) {
    throw new DispatchError(
      `${field} of resource ${resource}'s endpoint names ${name}, which is not a usable secret: the operator lists usable variables in ${DISPATCH_SECRETS_VAR} and sets them on every server that runs tasks`,
      false,
    );
  }
  return value;
}

/** The value, or null when the rules refuse the name or it has none (for checks that answer the same either way). */
export function usableSecret(name: string, env: Env = process.env): string | null {
  if (isReservedSecretName(name) || !listedSecretNames(env).has(name)) return null;
  return env[name] || null;
}
