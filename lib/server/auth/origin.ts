import 'server-only';
import { AppError } from '../platform/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function trustedOrigins(env: NodeJS.ProcessEnv): string[] {
  return (env.PLANGATE_TRUSTED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
}

/**
 * Refuses a state-changing request that a browser sent from another site: the session
 * cookie would ride along, so this is the CSRF guard. The request's own host (as the
 * client addressed it) is the one same origin; PLANGATE_TRUSTED_ORIGINS adds others.
 */
export function checkOrigin(method: string, headers: Headers, env: NodeJS.ProcessEnv = process.env): void {
  if (SAFE_METHODS.has(method.toUpperCase())) return;
  const origin = headers.get('origin');
  const fetchSite = headers.get('sec-fetch-site');
  if (fetchSite === 'cross-site') throw crossSite(origin ?? 'another site');
  if (!origin) return;
  if (trustedOrigins(env).includes(origin)) return;
  const host = headers.get('x-forwarded-host') ?? headers.get('host');
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw crossSite(origin);
  }
  if (!host || originHost !== host) throw crossSite(origin);
}

function crossSite(origin: string): AppError {
  return new AppError('forbidden', 403, `Cross-origin request from ${origin.slice(0, 100)} refused`);
}
