import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditKey, checkHeadSignature, existingAuditKey, signHead } from './audit-key';

let scratch: string;
let env: Record<string, string>;

beforeEach(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'plangate-audit-key-'));
  env = { PLANGATE_KEY_DIR: path.join(scratch, 'keys'), PLANGATE_DATA_DIR: path.join(scratch, 'data') };
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  rmSync(scratch, { recursive: true, force: true });
});

const HASH = 'sha256:' + 'ab'.repeat(32);

describe('the audit key', () => {
  it('is made as audit.key in the key directory on first use, with a warning; verification never makes one', () => {
    expect(existingAuditKey(env)).toBeNull();
    expect(() => statSync(path.join(env.PLANGATE_KEY_DIR, 'audit.key'))).toThrow();
    const key = auditKey(env);
    expect(key.source).toBe(path.join(env.PLANGATE_KEY_DIR, 'audit.key'));
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('audit.key'));
    expect(existingAuditKey(env)?.id).toBe(key.id);
  });

  it('comes from PLANGATE_AUDIT_KEY when set, which must be long enough', () => {
    const key = auditKey({ ...env, PLANGATE_AUDIT_KEY: 'k'.repeat(40) });
    expect(key.source).toBe('PLANGATE_AUDIT_KEY');
    expect(() => statSync(path.join(env.PLANGATE_KEY_DIR, 'audit.key'))).toThrow();
    expect(() => auditKey({ ...env, PLANGATE_AUDIT_KEY: 'short' })).toThrow(/at least 32/);
  });

  it('signs (seq, hash) so that another seq, hash or key does not verify', () => {
    const key = auditKey({ ...env, PLANGATE_AUDIT_KEY: 'k'.repeat(40) });
    const other = auditKey({ ...env, PLANGATE_AUDIT_KEY: 'o'.repeat(40) });
    const signature = signHead(key, 7, HASH);
    expect(signature).toMatch(new RegExp(`^hmac-sha256:${key.id}:[0-9a-f]{64}$`));
    expect(checkHeadSignature(key, 7, HASH, signature)).toEqual({ valid: true });
    expect(checkHeadSignature(key, 8, HASH, signature)).toEqual({ valid: false, otherKey: null });
    expect(checkHeadSignature(key, 7, 'sha256:' + 'cd'.repeat(32), signature)).toEqual({ valid: false, otherKey: null });
    expect(checkHeadSignature(other, 7, HASH, signature)).toEqual({ valid: false, otherKey: key.id });
    expect(checkHeadSignature(key, 7, HASH, 'garbage')).toEqual({ valid: false, otherKey: null });
  });
});
