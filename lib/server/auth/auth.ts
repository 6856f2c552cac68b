import 'server-only';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { nextCookies } from 'better-auth/next-js';
import { username } from 'better-auth/plugins';
import { passkeySession } from './passkey-session-plugin';
import { ROLES } from '@/lib/auth/roles';
import { getDatabase } from '../platform/db/connection';
import type { Database } from '../platform/db/client';
import { authSchema } from '../platform/db/schema';
import { authSecret } from './auth-secret';
import { USERNAME_PATTERN } from '@/lib/api/gate-schemas';

export const SESSION_DAYS = 7;

export function createAuth(db: Database, secret: string) {
  return betterAuth({
    appName: 'Plangate',
    secret,
    baseURL: process.env.PLANGATE_BASE_URL,
    database: drizzleAdapter(db, { provider: 'pg', schema: authSchema }),
    // Accounts are made by an admin (UI, API or CLI), never by self sign-up.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8 },
    session: { expiresIn: SESSION_DAYS * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    user: {
      additionalFields: {
        role: { type: [...ROLES], required: false, defaultValue: 'viewer', input: false },
        service: { type: 'boolean', required: false, defaultValue: false, input: false },
      },
    },
    advanced: {
      // Secure cookies unless explicitly turned off for plain-HTTP development hosts.
      useSecureCookies: process.env.PLANGATE_INSECURE_COOKIES !== '1',
      database: { generateId: () => crypto.randomUUID() },
    },
    telemetry: { enabled: false },
    plugins: [
      username({ minUsernameLength: 3, maxUsernameLength: 32, usernameValidator: (name) => USERNAME_PATTERN.test(name) }),
      passkeySession(),
      // Last, as better-auth asks: lets server actions set the session cookie.
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalKey = Symbol.for('plangate.auth');
type GlobalWithAuth = typeof globalThis & { [globalKey]?: Promise<Auth> };

/** The process's auth instance, bound to its database. */
export function getAuth(): Promise<Auth> {
  const store = globalThis as GlobalWithAuth;
  store[globalKey] ??= (async () => {
    const { db } = await getDatabase();
    return createAuth(db, authSecret());
  })().catch((error: unknown) => {
    delete store[globalKey];
    throw error;
  });
  return store[globalKey];
}
