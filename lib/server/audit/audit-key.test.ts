import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditKey, auditSignedBefore, checkHeadSignature, existingAuditKey, forgetAuditSignedMarker, markAuditSigned, signHead } from './audit-key';

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

  it('with DATABASE_URL, is never made: PLANGATE_AUDIT_KEY or a placed audit.key, else a clear error', () => {
    const shared = { ...env, DATABASE_URL: 'postgres://db.example/plangate' };
    expect(() => auditKey(shared)).toThrow(
      'with DATABASE_URL every instance must share the key: set PLANGATE_AUDIT_KEY (32+ characters) or place audit.key in PLANGATE_KEY_DIR',
    );
    expect(existsSync(path.join(env.PLANGATE_KEY_DIR, 'audit.key'))).toBe(false);
    expect(existingAuditKey(shared)).toBeNull();
    expect(auditKey({ ...shared, PLANGATE_AUDIT_KEY: 'k'.repeat(40) }).source).toBe('PLANGATE_AUDIT_KEY');
    const made = auditKey(env);
    expect(auditKey(shared).id).toBe(made.id);
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

describe('the audit.signed marker', () => {
  beforeEach(() => forgetAuditSignedMarker());

  it('is written (with its directory) by the first mark, and found after that', () => {
    const marker = path.join(env.PLANGATE_KEY_DIR, 'audit.signed');
    expect(auditSignedBefore(env)).toBe(false);
    markAuditSigned(env);
    expect(statSync(marker).mode & 0o777).toBe(0o600);
    expect(statSync(env.PLANGATE_KEY_DIR).mode & 0o777).toBe(0o700);
    expect(auditSignedBefore(env)).toBe(true);
    // Another process (no flag) finds the file; marking again leaves it be.
    forgetAuditSignedMarker();
    expect(auditSignedBefore(env)).toBe(true);
    markAuditSigned(env);
    expect(existsSync(marker)).toBe(true);
  });

  it('checks only its in-process flag once marked', () => {
    markAuditSigned(env);
    rmSync(env.PLANGATE_KEY_DIR, { recursive: true });
    markAuditSigned(env);
    expect(existsSync(env.PLANGATE_KEY_DIR)).toBe(false);
    expect(auditSignedBefore(env)).toBe(true);
    // Another key directory is another trail.
    expect(auditSignedBefore({ ...env, PLANGATE_KEY_DIR: path.join(scratch, 'other-keys') })).toBe(false);
  });

  it('warns, once, when it cannot be written', () => {
    writeFileSync(path.join(scratch, 'not-a-directory'), '');
    const blocked = { ...env, PLANGATE_KEY_DIR: path.join(scratch, 'not-a-directory', 'keys') };
    markAuditSigned(blocked);
    markAuditSigned(blocked);
    expect(console.warn).toHaveBeenCalledTimes(1);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('could not write the audit marker'));
    expect(auditSignedBefore(blocked)).toBe(false);
  });
});
