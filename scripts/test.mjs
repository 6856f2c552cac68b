// `npm test`: everything CI checks, from a fresh clone: install, browser, lint,
// typecheck, the generated API client's types, unit tests, build, browser and API tests.
import { ensureBuild, ensureInstall, fileExists, isRoot, run } from './lib/setup.mjs';

const CHROMIUM = '/usr/bin/chromium';

function ensureChromium() {
  if (fileExists(CHROMIUM)) return;
  if (!isRoot()) {
    throw new Error(`Playwright needs Debian's Chromium at ${CHROMIUM}: run "apt-get install -y chromium" as root.`);
  }
  console.log("› Installing Debian's Chromium…");
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', 'chromium'], { env: { DEBIAN_FRONTEND: 'noninteractive' } });
}

const step = (name, fn) => {
  console.log(`\n› ${name}`);
  fn();
};

try {
  step('Dependencies', ensureInstall);
  step('Chromium', ensureChromium);
  step('Lint', () => run('npm', ['run', '--silent', 'lint']));
  step('Typecheck', () => run('npm', ['run', '--silent', 'typecheck']));
  step('API client types from the OpenAPI document', () => run('node', ['scripts/api-client-check.mjs']));
  step('Unit tests', () => run('npm', ['run', '--silent', 'test:unit']));
  step('Build', ensureBuild);
  step('Browser and API tests', () => run('npx', ['playwright', 'test', '-c', 'e2e']));
  console.log('\n✓ All checks passed');
} catch (error) {
  console.error(`\n✗ ${error.message}`);
  process.exit(1);
}
