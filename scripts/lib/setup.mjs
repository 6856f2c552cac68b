// Shared steps of `npm start` and `npm test`. Node built-ins only: this runs before
// node_modules exists on a fresh clone.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options, env: { ...process.env, ...options.env } });
  if (result.status !== 0) {
    const why = result.error ? result.error.message : `exit code ${result.status ?? result.signal}`;
    throw new Error(`${command} ${args.join(' ')} failed (${why})`);
  }
}

function hashFiles(paths) {
  const hash = createHash('sha256');
  for (const file of paths) {
    hash.update(path.relative(root, file));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (!/\.test\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

/**
 * Installs when node_modules is missing or older than package-lock.json's content. `npm
 * install`, not `npm ci`: this machine's registry setting leaves other platforms'
 * optional binaries out of the lock file, which `npm ci` refuses as out of sync. Versions
 * are pinned in package.json and the lock, so the result is the same.
 */
export function ensureInstall() {
  const stamp = path.join(root, 'node_modules', '.plangate-install-stamp');
  const want = hashFiles([path.join(root, 'package-lock.json')]);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  console.log('› Installing dependencies…');
  // --prefer-offline: the lock pins every version and its integrity, so cached metadata is
  // enough and npm need not revalidate each package with the registry (7 s of the stage).
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline']);
  writeFileSync(stamp, hashFiles([path.join(root, 'package-lock.json')]));
}

const BUILD_INPUTS = ['app', 'components', 'lib', 'public'];
const BUILD_CONFIG = ['package-lock.json', 'next.config.mjs', 'tailwind.config.ts', 'postcss.config.mjs', 'tsconfig.json'];

/** Whether `.next` holds a build of exactly these sources (`want` names them). */
export function buildStatus() {
  const files = [
    ...BUILD_INPUTS.flatMap((dir) => walk(path.join(root, dir))),
    ...BUILD_CONFIG.map((f) => path.join(root, f)).filter((f) => existsSync(f)),
  ].sort();
  const want = hashFiles(files);
  const stamp = path.join(root, '.next', 'plangate-build-stamp');
  const built = existsSync(path.join(root, '.next', 'BUILD_ID')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === want;
  return { built, want };
}

export function writeBuildStamp(want) {
  writeFileSync(path.join(root, '.next', 'plangate-build-stamp'), want);
}

/** `next build` unless the sources are byte-for-byte those of the last build. */
export function ensureBuild() {
  const { built, want } = buildStatus();
  if (built) return;
  console.log('› Building the app (next build)…');
  run('npx', ['next', 'build'], { env: { NEXT_TELEMETRY_DISABLED: '1' } });
  writeBuildStamp(want);
}

export function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

export function fileExists(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
