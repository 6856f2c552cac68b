import 'server-only';
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

// PGlite is single-process: two processes on one data directory corrupt it. A lock file
// holding the owner's pid turns that mistake (a second `npm start` on another port) into
// a clear error. A lock left by a process that no longer runs is taken over.

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the directory for this process; returns the release function. */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'plangate.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => {
        try {
          if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8'));
      if (owner && owner !== process.pid && isRunning(owner)) {
        throw new Error(`lockDataDir: the PGlite data directory ${dir} is in use by process ${owner}; use another PLANGATE_DATA_DIR`);
      }
      unlinkSync(file);
    }
  }
  throw new Error(`lockDataDir: could not lock ${dir}`);
}
