import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keyDir, keyFilePath, readOrCreateKey } from './key-file';

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
});
