import 'server-only';
import { hasRole, roleOf, type Role } from '@/lib/auth/roles';
import { getDatabase } from '../platform/db/connection';
import { AppError } from '../platform/errors';
import { principalFromToken } from './api-tokens';
import type { Principal } from './principal-type';
import { getAuth } from './auth';

export type { Principal } from './principal-type';

/**
 * The caller, or null when the request carries no credentials. A Bearer token that is
 * malformed, unknown, expired or revoked is an error, not an anonymous request: the
 * client meant to authenticate and should hear why it did not.
 */
export async function authenticate(headers: Headers): Promise<Principal | null> {
  const authorization = headers.get('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match) throw new AppError('unauthenticated', 401, 'The Authorization header must be "Bearer <token>"');
    const { db } = await getDatabase();
    const principal = await principalFromToken(db, match[1]);
    if (!principal) throw new AppError('unauthenticated', 401, 'The API token is unknown, expired or revoked');
    return principal;
  }
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const { user } = session;
  return { id: user.id, username: user.username ?? user.name, role: roleOf(user.role), via: 'session', service: user.service === true };
}

export async function requireRole(headers: Headers, role: Role): Promise<Principal> {
  const principal = await authenticate(headers);
  if (!principal) {
    throw new AppError('unauthenticated', 401, 'Sign in, or send an API token as "Authorization: Bearer <token>"');
  }
  if (!hasRole(principal.role, role)) {
    throw new AppError('forbidden', 403, `This needs the ${role} role; ${principal.username} has the ${principal.role} role`);
  }
  return principal;
}
