import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isInside, keyDir, keyFilePath, readOrCreateKey } from './key-file';

let scratch: string;
let env: Record<string, string>;

beforeEach(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'plangate-keys-'));
  env = { PLANGATE_KEY_DIR: path.join(scratch, 'keys'), PLANGATE_DATA_DIR: path.join(scratch, 'data') };
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  rmSync(scratch, { recursive: true, force: true });
});

describe('readOrCreateKey', () => {
  it('uses the environment value when set, and writes no file', () => {
    expect(readOrCreateKey('auth.key', 'from-the-environment', env)).toBe('from-the-environment');
    expect(() => statSync(keyFilePath('auth.key', env))).toThrow();
  });

  it('makes a 0600 key file in a 0700 directory on first use, with a warning, and reads it afterwards', () => {
    const first = readOrCreateKey('auth.key', undefined, env);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(env.PLANGATE_KEY_DIR, 'auth.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(env.PLANGATE_KEY_DIR).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining(file));
    vi.mocked(console.warn).mockClear();
    expect(readOrCreateKey('auth.key', '', env)).toBe(first);
    expect(console.warn).not.toHaveBeenCalled();
  });

  it('keeps one key per name', () => {
    const auth = readOrCreateKey('auth.key', undefined, env);
    const audit = readOrCreateKey('audit.key', undefined, env);
    expect(audit).not.toBe(auth);
    expect(readOrCreateKey('audit.key', undefined, env)).toBe(audit);
  });

  it('refuses a key directory inside the data directory, or the data directory itself', () => {
    expect(() => readOrCreateKey('auth.key', undefined, { ...env, PLANGATE_KEY_DIR: path.join(env.PLANGATE_DATA_DIR, 'keys') })).toThrow(
      /inside PLANGATE_DATA_DIR/,
    );
    expect(() => keyDir({ ...env, PLANGATE_KEY_DIR: env.PLANGATE_DATA_DIR })).toThrow(/inside PLANGATE_DATA_DIR/);
    expect(() => keyDir({ PLANGATE_KEY_DIR: '.data/keys' })).toThrow(/inside PLANGATE_DATA_DIR/);
    expect(keyDir({ ...env, PLANGATE_KEY_DIR: `${env.PLANGATE_DATA_DIR}-keys` })).toBe(`${env.PLANGATE_DATA_DIR}-keys`);
  });

  it('tells a name starting with two dots inside the data directory from a way out of it', () => {
    const data = env.PLANGATE_DATA_DIR;
    expect(isInside(path.join(data, '..keys'), data)).toBe(true);
    expect(isInside(path.join(data, '...'), data)).toBe(true);
    expect(() => keyDir({ ...env, PLANGATE_KEY_DIR: path.join(data, '..keys') })).toThrow(/inside PLANGATE_DATA_DIR/);
    expect(() => keyDir({ PLANGATE_KEY_DIR: '.data/..keys' })).toThrow(/inside PLANGATE_DATA_DIR/);
    expect(isInside(path.join(data, '..'), data)).toBe(false);
    expect(isInside(path.join(data, '..', 'keys'), data)).toBe(false);
    expect(isInside(path.join(scratch, 'keys'), data)).toBe(false);
  });

  it('judges directories by their real paths, through symbolic links', () => {
    const data = env.PLANGATE_DATA_DIR;
    mkdirSync(path.join(data, 'keys'), { recursive: true });
    // A link outside the data directory that leads into it, and a link to the data directory.
    symlinkSync(path.join(data, 'keys'), path.join(scratch, 'linked-keys'));
    symlinkSync(data, path.join(scratch, 'linked-data'));
    expect(() => keyDir({ ...env, PLANGATE_KEY_DIR: path.join(scratch, 'linked-keys') })).toThrow(/inside PLANGATE_DATA_DIR/);
    expect(() => keyDir({ ...env, PLANGATE_KEY_DIR: path.join(scratch, 'linked-keys', 'not-made-yet') })).toThrow(/inside PLANGATE_DATA_DIR/);
    expect(() => keyDir({ ...env, PLANGATE_KEY_DIR: path.join(data, 'keys'), PLANGATE_DATA_DIR: path.join(scratch, 'linked-data') })).toThrow(
      /inside PLANGATE_DATA_DIR/,
    );
  });

  it('defaults to .keys under the working directory', () => {
    expect(keyDir({})).toBe(path.resolve(process.cwd(), '.keys'));
  });

  it('refuses a file name with a path in it, and a key file that is too short', () => {
    expect(() => readOrCreateKey('../auth.key', undefined, env)).toThrow(/invalid key file name/);
    readOrCreateKey('short.key', undefined, env);
    writeFileSync(keyFilePath('short.key', env), 'abc\n');
    expect(() => readOrCreateKey('short.key', undefined, env)).toThrow(/at least 32/);
  });

  it('warns about a key file other users can read', () => {
    readOrCreateKey('auth.key', undefined, env);
    chmodSync(keyFilePath('auth.key', env), 0o644);
    vi.mocked(console.warn).mockClear();
    readOrCreateKey('auth.key', undefined, env);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('chmod 600'));
  });

  describe('with DATABASE_URL (instances share the key)', () => {
    const shared = () => ({ ...env, DATABASE_URL: 'postgres://db.example/plangate' });

    it('never makes a key: it refuses, naming the variable and the file', () => {
      expect(() => readOrCreateKey('audit.key', undefined, shared(), 'PLANGATE_AUDIT_KEY')).toThrow(
        'with DATABASE_URL every instance must share the key: set PLANGATE_AUDIT_KEY (32+ characters) or place audit.key in PLANGATE_KEY_DIR',
      );
      expect(() => readOrCreateKey('audit.key', '  ', shared(), 'PLANGATE_AUDIT_KEY')).toThrow(path.join(env.PLANGATE_KEY_DIR, 'audit.key'));
      expect(() => statSync(env.PLANGATE_KEY_DIR)).toThrow();
      expect(console.warn).not.toHaveBeenCalled();
    });

    it('uses the environment value, or a key file the operator placed', () => {
      expect(readOrCreateKey('audit.key', 'from-the-environment', shared(), 'PLANGATE_AUDIT_KEY')).toBe('from-the-environment');
      mkdirSync(env.PLANGATE_KEY_DIR, { mode: 0o700 });
      writeFileSync(path.join(env.PLANGATE_KEY_DIR, 'audit.key'), `${'p'.repeat(44)}\n`, { mode: 0o600 });
      expect(readOrCreateKey('audit.key', undefined, shared(), 'PLANGATE_AUDIT_KEY')).toBe('p'.repeat(44));
    });

    it('makes one as before when DATABASE_URL is empty', () => {
      expect(readOrCreateKey('audit.key', undefined, { ...env, DATABASE_URL: '' })).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });
  });
});
