import 'server-only';
import { AppError } from '../platform/errors';

// WebAuthn scopes a passkey to a relying party id (a host name) and the browser writes the
// page's origin into what it signs. Plangate is its own relying party: the id is the host
// name the browser addressed (127.0.0.1 in the tests), as checkOrigin (auth/origin.ts) reads it.

export interface RelyingParty {
  /** The host the request addressed, with its port. */
  host: string;
  /** Its host name: the RP id passkeys are registered under. */
  rpId: string;
  /** PLANGATE_TRUSTED_ORIGINS: other origins the app is served from. */
  trusted: string[];
}

export function relyingPartyOf(headers: Headers, env: NodeJS.ProcessEnv = process.env): RelyingParty {
  const host = headers.get('x-forwarded-host') ?? headers.get('host');
  if (!host) throw new AppError('bad_request', 400, 'The request names no host, so the passkey relying party is unknown');
  const rpId = new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, '');
  const trusted = (env.PLANGATE_TRUSTED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return { host, rpId, trusted };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * Whether a browser could have signed on `origin` for `rpId`, and it is this app: https (or
 * http on loopback, the only place browsers allow WebAuthn without TLS), a host name that
 * is the RP id or under it, and the host this request addressed or a trusted origin.
 */
export function acceptableOrigin(rp: RelyingParty, origin: string, rpId: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false;
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  const scoped = url.hostname === rpId || url.hostname.endsWith(`.${rpId}`);
  return secure && scoped && (url.host === rp.host || rp.trusted.includes(origin));
}

/** What a browser wrote into clientDataJSON (base64url), as far as it can be read; empty strings where it cannot. */
export function readClientData(clientDataJSON: string): { type: string; challenge: string; origin: string } {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return { type: text(data.type), challenge: text(data.challenge), origin: text(data.origin) };
  } catch {
    return { type: '', challenge: '', origin: '' };
  }
}

/** The origin a browser signed on, once it is known to be this app's; else a clear refusal. */
export function checkedOrigin(rp: RelyingParty, clientDataJSON: string, rpId: string, after: string): string {
  const { origin } = readClientData(clientDataJSON);
  if (!acceptableOrigin(rp, origin, rpId)) {
    throw new AppError('bad_request', 400, `The passkey signed on ${origin.slice(0, 100) || 'an unknown origin'}, not on this app (${rpId}). ${after}`);
  }
  return origin;
}
