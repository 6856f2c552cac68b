import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { keyFilePath, readOrCreateKey } from '../platform/keys/key-file';

// The key that signs the audit chain's head. It never lives in the database: whoever can
// rewrite the database but not read this key cannot make a rewritten, truncated or
// extended chain verify. PLANGATE_AUDIT_KEY when set, otherwise the file `audit.key` in
// PLANGATE_KEY_DIR (default .keys), made on first use with a warning. Loaded once per
// process (again only if those variables change), so appends can sign synchronously.
// With DATABASE_URL it is never made (every instance must share it): see readOrCreateKey.
//
// The first signed append leaves a marker, `audit.signed`, in the key directory. Without
// it, a trail with events and no signed head is taken for one from before heads were
// signed (extended unsigned until adopted); with it, the head was deleted: tampering.

export const AUDIT_KEY_FILE = 'audit.key';
export const AUDIT_KEY_ENV = 'PLANGATE_AUDIT_KEY';
/** The marker file in the key directory: this trail has been signed here before. */
export const AUDIT_SIGNED_MARKER = 'audit.signed';
const MIN_KEY_LENGTH = 32;
const HEAD_CONTEXT = 'plangate audit head v1';
const KEY_ID_CONTEXT = 'plangate audit key id';

export interface AuditKey {
  /** A public fingerprint of the key (an HMAC under it), written into every signature. */
  id: string;
  /** Where it came from, for messages: the environment variable or the key file's path. */
  source: string;
  secret: Buffer;
}

type Env = Record<string, string | undefined>;

let cached: { settings: string; key: AuditKey } | undefined;

function settingsOf(env: Env): string {
  return JSON.stringify([env[AUDIT_KEY_ENV] ?? '', env.PLANGATE_KEY_DIR ?? '', env.PLANGATE_DATA_DIR ?? '']);
}

function keyOf(value: string, source: string): AuditKey {
  if (value.length < MIN_KEY_LENGTH) {
    throw new Error(`The audit key from ${source} has ${value.length} characters; at least ${MIN_KEY_LENGTH} are needed (e.g. openssl rand -base64 32).`);
  }
  const secret = Buffer.from(value, 'utf8');
  const id = createHmac('sha256', secret).update(KEY_ID_CONTEXT).digest('hex').slice(0, 16);
  return { id, source, secret };
}

function load(env: Env, create: boolean): AuditKey | null {
  const settings = settingsOf(env);
  if (cached?.settings === settings) return cached.key;
  const fromEnv = env[AUDIT_KEY_ENV]?.trim();
  let key: AuditKey;
  if (fromEnv) {
    key = keyOf(fromEnv, AUDIT_KEY_ENV);
  } else {
    const file = keyFilePath(AUDIT_KEY_FILE, env);
    if (!create && !existsSync(file)) return null;
    key = keyOf(readOrCreateKey(AUDIT_KEY_FILE, undefined, env, AUDIT_KEY_ENV), file);
  }
  cached = { settings, key };
  return key;
}

/** The audit signing key, made (key file, with a warning) when there is none yet. Throws when it cannot be had. */
export function auditKey(env: Env = process.env): AuditKey {
  return load(env, true)!;
}

/** The audit signing key if one is configured or its key file exists; never makes one (for verification). */
export function existingAuditKey(env: Env = process.env): AuditKey | null {
  return load(env, false);
}

/** Where an operator would put the key, for messages. */
export function auditKeyHint(env: Env = process.env): string {
  let file: string;
  try {
    file = keyFilePath(AUDIT_KEY_FILE, env);
  } catch (error) {
    file = `(PLANGATE_KEY_DIR is unusable: ${(error as Error).message})`;
  }
  return `set ${AUDIT_KEY_ENV}, or PLANGATE_KEY_DIR to the directory holding the server's ${AUDIT_KEY_FILE} (looked for ${file})`;
}

/** The key directory settings the marker was last seen or written under, and what was found. */
let marker: { settings: string; state: 'present' | 'unwritable' } | undefined;

function markerSettings(env: Env): string {
  return JSON.stringify([env.PLANGATE_KEY_DIR ?? '', env.PLANGATE_DATA_DIR ?? '']);
}

/** Where the `audit.signed` marker lives: the key directory. */
export function auditSignedMarkerPath(env: Env = process.env): string {
  return keyFilePath(AUDIT_SIGNED_MARKER, env);
}

/**
 * Records that this trail has been signed: writes the `audit.signed` marker (and the key
 * directory, 0700, if need be) the first time, and after that only checks an in-process
 * flag, so appends pay nothing for it. A marker that cannot be written is warned about
 * once (deleting the head then looks like a trail from before signing).
 */
export function markAuditSigned(env: Env = process.env): void {
  const settings = markerSettings(env);
  if (marker?.settings === settings) return;
  let file = '(unknown)';
  try {
    file = auditSignedMarkerPath(env);
    mkdirSync(/* turbopackIgnore: true */ path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(
      file,
      'The audit trail of the database this server uses has a signed head: its absence is tampering. Do not delete this file.\n',
      { flag: 'wx', mode: 0o600 },
    );
    marker = { settings, state: 'present' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      marker = { settings, state: 'present' };
      return;
    }
    marker = { settings, state: 'unwritable' };
    console.warn(
      `[plangate] WARNING: could not write the audit marker ${file} (${(error as Error).message}); ` +
        'a deleted audit head will not be told apart from a trail from before signing. Make the key directory writable.',
    );
  }
}

/** Whether the trail has been signed here before (the `audit.signed` marker exists). */
export function auditSignedBefore(env: Env = process.env): boolean {
  const settings = markerSettings(env);
  if (marker?.settings === settings && marker.state === 'present') return true;
  let present: boolean;
  try {
    present = existsSync(/* turbopackIgnore: true */ auditSignedMarkerPath(env));
  } catch {
    return false;
  }
  if (present) marker = { settings, state: 'present' };
  return present;
}

/** Forgets the in-process marker flag (tests). */
export function forgetAuditSignedMarker(): void {
  marker = undefined;
}

function mac(key: AuditKey, seq: number, hash: string): string {
  return createHmac('sha256', key.secret).update(`${HEAD_CONTEXT}\n${seq}\n${hash}`).digest('hex');
}

/** The signature of a chain head: `hmac-sha256:<key id>:<HMAC-SHA-256 of (seq, hash)>`. */
export function signHead(key: AuditKey, seq: number, hash: string): string {
  return `hmac-sha256:${key.id}:${mac(key, seq, hash)}`;
}

export type SignatureCheck = { valid: true } | { valid: false; otherKey: string | null };

/** Whether `signature` is this key's signature of (seq, hash); `otherKey` names a different key id it claims. */
export function checkHeadSignature(key: AuditKey, seq: number, hash: string, signature: string): SignatureCheck {
  const match = /^hmac-sha256:([0-9a-f]{16}):([0-9a-f]{64})$/.exec(signature);
  if (!match) return { valid: false, otherKey: null };
  if (match[1] !== key.id) return { valid: false, otherKey: match[1] };
  const expected = Buffer.from(mac(key, seq, hash), 'hex');
  return timingSafeEqual(expected, Buffer.from(match[2], 'hex')) ? { valid: true } : { valid: false, otherKey: null };
}
