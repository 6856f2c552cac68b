import 'server-only';
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, realpathSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Plangate's secret keys (the session-signing secret, the audit signing key) never live in
// the database: a copy of the database (a backup, a dump handed to support) must not carry
// what it takes to forge a session or re-sign an altered audit trail. Each key comes from
// its environment variable, or else from a file in PLANGATE_KEY_DIR (default `.keys` under
// the working directory), made on first start with mode 0600. The key directory may never
// be inside PLANGATE_DATA_DIR, where it would be copied along with the embedded database.
//
// With DATABASE_URL (PostgreSQL, possibly many instances behind a load balancer) a key is
// never made: each host would make its own, and instances would then refuse each other's
// audit heads and sessions. The key must come from its environment variable or a key
// file the operator placed; otherwise readOrCreateKey throws, naming both.

const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** Characters of a generated key: 32 random bytes, base64url. */
const GENERATED_BYTES = 32;
const MIN_FILE_KEY_LENGTH = 32;

type Env = Record<string, string | undefined>;


/** The PGlite data directory as the database client resolves it. */
function dataDir(env: Env): string {
  return path.resolve(/* turbopackIgnore: true */ process.cwd(), env.PLANGATE_DATA_DIR || '.data');
}

/**
 * The path with symbolic links resolved as far as it exists: the real path of its longest
 * existing ancestor, with the rest appended (a key directory not made yet is still judged
 * by where it would be).
 */
function realPath(target: string): string {
  const rest: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(realpathSync(/* turbopackIgnore: true */ current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return target;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

/** Whether `child` is `parent` or below it. A name starting with two dots (`..keys`) is below. */
export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(realPath(parent), realPath(child));
  return relative === '' || (relative !== '..' && !relative.startsWith('..' + path.sep) && !path.isAbsolute(relative));
}

/**
 * The key directory: PLANGATE_KEY_DIR (relative to the working directory) or `.keys`.
 * Throws when it is the data directory or inside it (whether or not the embedded
 * database is in use: the setting would be a trap the day it is).
 */
export function keyDir(env: Env = process.env): string {
  const dir = path.resolve(/* turbopackIgnore: true */ process.cwd(), env.PLANGATE_KEY_DIR || '.keys');
  const data = dataDir(env);
  if (isInside(dir, data)) {
    throw new Error(
      `PLANGATE_KEY_DIR (${dir}) is inside PLANGATE_DATA_DIR (${data}); keys must not be stored with the database. Choose a key directory outside the data directory.`,
    );
  }
  return dir;
}

/** Where the key `name` lives when its environment variable is unset. */
export function keyFilePath(name: string, env: Env = process.env): string {
  if (!NAME_PATTERN.test(name)) throw new Error(`readOrCreateKey: invalid key file name ${JSON.stringify(name)}`);
  return path.join(/* turbopackIgnore: true */ keyDir(env), name);
}

function readKey(file: string): string {
  const value = readFileSync(file, 'utf8').trim();
  if (value.length < MIN_FILE_KEY_LENGTH) {
    throw new Error(`The key file ${file} holds ${value.length} characters; at least ${MIN_FILE_KEY_LENGTH} are needed. Delete it to have a new key made, or fix it.`);
  }
  const mode = statSync(file).mode & 0o777;
  if (mode & 0o077) {
    console.warn(`[plangate] the key file ${file} is readable by other users (mode ${mode.toString(8)}); run: chmod 600 ${file}`);
  }
  return value;
}

/**
 * A secret key: `envValue` when it is set and not blank (the operator's choice, used as
 * given), otherwise the contents of the file `name` in the key directory, which is made
 * (32 random bytes, base64url, mode 0600, directory 0700) with a console warning when it
 * does not exist yet. Two processes starting at once agree: the file is created
 * exclusively and the loser reads the winner's key.
 *
 * With DATABASE_URL set, no key is ever made (every instance must share it): a missing
 * key file throws an error naming `variable` and the file.
 *
 * @param name the file name in the key directory, e.g. `auth.key`, `audit.key`
 * @param envValue the value of the key's environment variable, e.g. process.env.PLANGATE_AUDIT_KEY
 * @param env where PLANGATE_KEY_DIR, PLANGATE_DATA_DIR and DATABASE_URL are read (process.env by default)
 * @param variable the key's environment variable, for the error message
 */
export function readOrCreateKey(name: string, envValue: string | undefined, env: Env = process.env, variable = 'the key\'s environment variable'): string {
  const fromEnv = envValue?.trim();
  if (fromEnv) return fromEnv;
  const file = keyFilePath(name, env);
  try {
    return readKey(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (env.DATABASE_URL?.trim()) {
    throw new Error(
      `with DATABASE_URL every instance must share the key: set ${variable} (32+ characters) or place ${name} in PLANGATE_KEY_DIR ` +
        `(looked for ${file}). Plangate does not make keys for a shared database.`,
    );
  }
  mkdirSync(/* turbopackIgnore: true */ path.dirname(file), { recursive: true, mode: 0o700 });
  const value = randomBytes(GENERATED_BYTES).toString('base64url');
  // Written whole under a private name, then linked into place: a process starting at the
  // same moment sees either no key file or a complete one, and exactly one link wins.
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, `${value}\n`, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readKey(file);
    throw error;
  } finally {
    unlinkSync(temporary);
  }
  console.warn(
    `[plangate] WARNING: made a new secret key ${file} (mode 0600). Keep it out of backups of the database, ` +
      `back it up separately, and give every instance the same key (or set the key's environment variable).`,
  );
  return value;
}
