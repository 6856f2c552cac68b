import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock';

describe('lockDataDir', () => {
  it('refuses a directory another live process holds, and takes over a stale lock', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'plangate-lock-'));
    // A process that is certainly alive and is not this one: the one that started this test.
    writeFileSync(path.join(dir, 'plangate.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(`is in use by process ${process.ppid}`);

    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(path.join(dir, 'plangate.lock'), dead);
    const release = lockDataDir(dir);
    expect(existsSync(path.join(dir, 'plangate.lock'))).toBe(true);
    release();
    expect(existsSync(path.join(dir, 'plangate.lock'))).toBe(false);
  });
});
