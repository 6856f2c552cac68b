import 'server-only';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { auditKey } from '../audit/audit-key';

// Outgoing webhooks' signing secrets are sealed at rest: a copy of the database (a backup, a
// dump handed to support) must not carry what it takes to sign events as Plangate. The key is
// derived (HKDF-SHA256) from the audit key, which lives outside the database already (its
// environment variable or PLANGATE_KEY_DIR), so there is no new key to manage; AES-256-GCM
// with the webhook's id as associated data, so a sealed secret moved to another row fails.

const PREFIX = 'enc:v1:';
const INFO = 'plangate/webhook-secrets/v1';

function key(): Buffer {
  return Buffer.from(hkdfSync('sha256', auditKey().secret, Buffer.alloc(0), INFO, 32));
}

/** The secret as stored: `enc:v1:<iv>.<tag>.<ciphertext>`, each base64url. */
export function sealWebhookSecret(secret: string, webhookId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv).setAAD(Buffer.from(webhookId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${sealed.toString('base64url')}`;
}

/** Whether a stored secret is sealed; one stored before sealing is sealed at the next start. */
export const isSealed = (stored: string) => stored.startsWith(PREFIX);

/** The secret a stored value holds; a value from before sealing is read as it is. Throws if a sealed one was altered or moved. */
export function openWebhookSecret(stored: string, webhookId: string): string {
  if (!isSealed(stored)) return stored;
  const [iv, tag, sealed] = stored.slice(PREFIX.length).split('.');
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv ?? '', 'base64url')).setAAD(Buffer.from(webhookId, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed ?? '', 'base64url')), decipher.final()]).toString('utf8');
}
