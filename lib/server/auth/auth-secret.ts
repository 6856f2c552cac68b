import 'server-only';
import { readOrCreateKey } from '../platform/keys/key-file';

/** The key file of the session-signing secret in PLANGATE_KEY_DIR. */
export const AUTH_KEY_FILE = 'auth.key';

/**
 * The key that signs session cookies. Never kept in the database beside the sessions it
 * signs, so a copy of the database alone cannot mint or replay a session:
 * BETTER_AUTH_SECRET or PLANGATE_AUTH_SECRET when set, otherwise the key file `auth.key`
 * in PLANGATE_KEY_DIR, made on first start. Instances that share a database must share
 * the secret (the same variable, or the same key file): with DATABASE_URL it is never
 * made, and a missing one is an error naming PLANGATE_AUTH_SECRET.
 */
export function authSecret(env: Record<string, string | undefined> = process.env): string {
  const fromEnv = env.BETTER_AUTH_SECRET?.trim() || env.PLANGATE_AUTH_SECRET?.trim();
  if (fromEnv && fromEnv.length < 32) {
    throw new Error('The session secret (BETTER_AUTH_SECRET or PLANGATE_AUTH_SECRET) must be at least 32 characters long.');
  }
  return readOrCreateKey(AUTH_KEY_FILE, fromEnv, env, 'PLANGATE_AUTH_SECRET');
}
