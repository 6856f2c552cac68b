/**
 * Plangate's command line: users, tokens and the audit trail, straight on the database.
 *
 *   npm run plangate -- help
 *   npm run plangate -- user add NAME --role ROLE [--password P | --service]
 *   npm run plangate -- user role NAME ROLE
 *   npm run plangate -- user list
 *   npm run plangate -- token create NAME [--label L] [--expires-days N]   (service accounts only)
 *   npm run plangate -- audit verify
 *   npm run plangate -- audit adopt [--replace-head]
 *   npm run plangate -- worker [--concurrency N]                          (PostgreSQL only)
 *
 * It opens the same database the server does (DATABASE_URL, or PGlite in
 * PLANGATE_DATA_DIR, default ./.data). A PGlite directory can be open in one process
 * only, so with PGlite stop the server first, or use the REST API instead.
 * Every change is audited with the actor "cli".
 *
 * `npm run plangate` runs it with V8's `--liftoff-only`: a command opening PGlite lives for a
 * second or two, and optimising PGlite's WebAssembly in the background costs about a quarter
 * of such a command's CPU, for code it would barely run. The long-lived `worker` needs
 * PostgreSQL, so it never runs PGlite's code.
 */

import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { CreateTokenRequest, CreateUserRequest, Username } from '../lib/api/gate-schemas';
import { ROLES, Role } from '../lib/auth/roles';
import { adoptAuditChain, verifyAudit } from '../lib/server/audit/audit-log';
import { createServiceToken } from '../lib/server/auth/api-tokens';
import { createUser, listUsers, setUserRole } from '../lib/server/auth/users';
import { databaseConfigFromEnv, openDatabase, type Database, type DatabaseConfig, type DatabaseHandle } from '../lib/server/platform/db/client';
import { AppError } from '../lib/server/platform/errors';

const ACTOR = 'cli';

const USAGE = `Usage: npm run plangate -- <command>

Commands:
  user add NAME --role ROLE [--password P | --service]
      Creates a person who signs in. Without --password a random 20-character
      password is generated and printed once. With --service it creates a
      service account instead: no password, API tokens only, and it can never
      approve, reject or request changes.
  user role NAME ROLE
      Changes a user's role.
  user list
      Lists the users and their roles.
  token create NAME [--label L] [--expires-days N]
      Creates an API token for the service account NAME and prints it (it is
      not shown again). A person's token acts in their name, so people create
      their own, signed in (POST /api/tokens with their session).
  audit verify
      Checks the audit trail; exits 1 when it fails. Every event must match its
      hash and link to the one before it; the last event must be the head
      signed with the audit key (PLANGATE_AUDIT_KEY, or audit.key in
      PLANGATE_KEY_DIR, default ./.keys: the server's key), so a deleted tail,
      a re-hashed chain or a forged append fails; every stored revision body
      and every review must match the digest its event recorded, and a review
      a "superseded" event voided must still be superseded.
  audit adopt [--replace-head]
      Trusts a trail from before signed heads: checks its hashes and links,
      then records an audit_adopted event and signs the head. Whatever was done
      to the trail before that cannot be detected afterwards. --replace-head
      also replaces a head that does not vouch for the trail (e.g. the key was
      lost), and is needed too when the head is missing although the trail has
      been signed (the marker audit.signed in PLANGATE_KEY_DIR exists: the head
      was deleted, which is tampering); use it only after finding out why
      verify fails.
  worker [--concurrency N]
      Runs the tasks of approved plans' runs until stopped (Ctrl+C or
      SIGTERM), beside the servers and other workers sharing DATABASE_URL.
      N tasks at once (default 8). Results that executors post later go to
      PLANGATE_PUBLIC_URL. PostgreSQL only: a PGlite server runs its own.
  help
      Shows this text.

Roles: ${ROLES.join(', ')}.

Database: DATABASE_URL (PostgreSQL) when set, otherwise PGlite in
PLANGATE_DATA_DIR (default ./.data). A PGlite directory can be open in one
process only: stop the server first, or use the REST API while it runs.`;

/** Bad input: the message is printed with a pointer to the usage, and the exit code is 2. */
class UsageError extends Error {}

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

function generatePassword(length = 20): string {
  let password = '';
  for (let i = 0; i < length; i++) password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return password;
}

// The request fields the command-line options fill, so a schema error names the option.
const OPTION_OF_FIELD: Record<string, string> = { password: '--password', role: '--role', label: '--label', expires_in_days: '--expires-days' };

function zodMessage(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.join('.');
      return field ? `${OPTION_OF_FIELD[field] ?? field}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

function parseUsername(value: string | undefined): string {
  if (value === undefined) throw new UsageError('missing the user name');
  const parsed = Username.safeParse(value);
  if (!parsed.success) throw new UsageError(`invalid user name "${value}": ${zodMessage(parsed.error)}`);
  return parsed.data;
}

function parseRole(value: string | undefined): Role {
  if (value === undefined) throw new UsageError(`missing the role; use one of ${ROLES.join(', ')}`);
  const parsed = Role.safeParse(value.trim().toLowerCase());
  if (!parsed.success) throw new UsageError(`unknown role "${value}"; use one of ${ROLES.join(', ')}`);
  return parsed.data;
}

type Options = { role?: string; password?: string; service?: boolean; label?: string; 'expires-days'?: string; 'replace-head'?: boolean; concurrency?: string; help?: boolean };

function onlyOptions(command: string, options: Options, allowed: Array<keyof Options>): void {
  for (const name of Object.keys(options) as Array<keyof Options>) {
    if (name !== 'help' && options[name] !== undefined && !allowed.includes(name)) {
      throw new UsageError(`--${name} does not apply to "${command}"`);
    }
  }
}

function exactPositionals(command: string, positionals: string[], count: number, shape: string): void {
  if (positionals.length > count) {
    throw new UsageError(`unexpected argument "${positionals[count]}" for "${command}"; expected: ${shape}`);
  }
}

type Run = (db: Database, handle: DatabaseHandle) => Promise<number>;

/** Validates everything before the database is opened, so bad input never takes the PGlite lock. */
function plan(positionals: string[], options: Options): Run | 'help' {
  const [group, action, ...rest] = positionals;
  if (options.help || group === undefined || group === 'help') return 'help';
  const command = `${group} ${action ?? ''}`.trim();

  if (group === 'user' && action === 'add') {
    onlyOptions(command, options, ['role', 'password', 'service']);
    exactPositionals(command, rest, 1, 'user add NAME --role ROLE [--password P | --service]');
    const username = parseUsername(rest[0]);
    if (options.role === undefined) throw new UsageError(`missing --role; use one of ${ROLES.join(', ')}`);
    const role = parseRole(options.role);
    const service = options.service === true;
    if (service && options.password !== undefined) throw new UsageError('a service account has no password: give --service or --password, not both');
    const generated = !service && options.password === undefined;
    const password = service ? undefined : (options.password ?? generatePassword());
    const request = CreateUserRequest.safeParse(service ? { username, role, service: true } : { username, password, role });
    if (!request.success) throw new UsageError(zodMessage(request.error));
    return async (db) => {
      const created = await createUser(db, request.data, ACTOR);
      console.log(`Created ${service ? 'service account' : 'user'} ${created.username} with the ${created.role} role.`);
      if (generated) console.log(`Password (shown only now): ${password}`);
      return 0;
    };
  }

  if (group === 'user' && action === 'role') {
    onlyOptions(command, options, []);
    exactPositionals(command, rest, 2, 'user role NAME ROLE');
    const username = parseUsername(rest[0]);
    const role = parseRole(rest[1]);
    return async (db) => {
      const updated = await setUserRole(db, username, role, ACTOR);
      console.log(`${updated.username} now has the ${updated.role} role.`);
      return 0;
    };
  }

  if (group === 'user' && action === 'list') {
    onlyOptions(command, options, []);
    exactPositionals(command, rest, 0, 'user list');
    return async (db) => {
      const users = await listUsers(db);
      if (users.length === 0) console.log('No users yet.');
      const width = Math.max(8, ...users.map((u) => u.username.length));
      for (const u of users) console.log(`${u.username.padEnd(width)}  ${u.role.padEnd(8)}  ${(u.service ? 'service' : 'person').padEnd(7)}  ${u.created_at}`);
      return 0;
    };
  }

  if (group === 'token' && action === 'create') {
    onlyOptions(command, options, ['label', 'expires-days']);
    exactPositionals(command, rest, 1, 'token create NAME [--label L] [--expires-days N]');
    const username = parseUsername(rest[0]);
    const days = options['expires-days'];
    if (days !== undefined && !/^\d+$/.test(days.trim())) {
      throw new UsageError(`--expires-days must be a whole number of days, not "${days}"`);
    }
    const request = CreateTokenRequest.safeParse({
      username,
      label: options.label,
      expires_in_days: days === undefined ? undefined : Number(days),
    });
    if (!request.success) throw new UsageError(zodMessage(request.error));
    const { label, expires_in_days } = request.data;
    return async (db) => {
      const expiresAt = expires_in_days ? new Date(Date.now() + expires_in_days * DAY_MS) : null;
      const created = await createServiceToken(db, { username, label, expiresAt }, ACTOR);
      // The token alone on stdout, so `$(npm run -s plangate -- token create …)` captures it.
      console.error(
        `Created an API token for ${username}${label ? ` (${label})` : ''}, ${created.expires_at ? `expiring ${created.expires_at}` : 'without expiry'}. It is shown only now:`,
      );
      console.log(created.token);
      return 0;
    };
  }

  if (group === 'audit' && action === 'verify') {
    onlyOptions(command, options, []);
    exactPositionals(command, rest, 0, 'audit verify');
    return async (db) => {
      const result = await verifyAudit(db);
      if (result.ok) {
        console.log(`audit trail OK: ${result.events} events`);
        return 0;
      }
      console.log(`audit trail BROKEN${result.seq === undefined ? '' : ` at event ${result.seq}`}: ${result.reason}`);
      return 1;
    };
  }

  if (group === 'audit' && action === 'adopt') {
    onlyOptions(command, options, ['replace-head']);
    exactPositionals(command, rest, 0, 'audit adopt [--replace-head]');
    return async (db) => {
      const adopted = await adoptAuditChain(db, { actor: ACTOR, replaceHead: options['replace-head'] === true });
      if (!adopted.adopted) {
        console.log(`audit trail not adopted: ${adopted.reason}`);
        return 1;
      }
      console.log(`audit trail adopted: trusted up to event ${adopted.trustedUpTo}, signed at event ${adopted.seq}`);
      const result = await verifyAudit(db);
      if (result.ok) return 0;
      console.log(`but it still fails verification${result.seq === undefined ? '' : ` at event ${result.seq}`}: ${result.reason}`);
      return 1;
    };
  }

  if (group === 'worker') {
    onlyOptions(command, options, ['concurrency']);
    exactPositionals(command, rest, 0, 'worker [--concurrency N]');
    const concurrency = options.concurrency === undefined ? 8 : Number(options.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 100) throw new UsageError('--concurrency must be a whole number from 1 to 100');
    return async (_db, handle) => {
      if (handle.kind !== 'postgres') {
        console.error('plangate: a worker process needs PostgreSQL (DATABASE_URL); with PGlite the server runs the tasks itself');
        return 2;
      }
      // Loaded here, not at the top: the run engine and the webhook worker are most of the CLI's
      // imports, and every other command is a short-lived process that never needs them.
      const [{ resultUrlsFromEnv, startRunWorkers, stopRunWorkers }, { startWebhooks }] = await Promise.all([
        import('../lib/server/runs/run-workers'),
        import('../lib/server/webhooks/webhook-worker'),
      ]);
      // Its runs' events are queued with them, and it sends outgoing webhooks as the servers do.
      await startWebhooks(handle);
      await startRunWorkers(handle, { resultUrl: resultUrlsFromEnv(), concurrency });
      console.error(`plangate: worker running ${concurrency} task${concurrency === 1 ? '' : 's'} at once; Ctrl+C stops it`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await stopRunWorkers(handle);
      return 0;
    };
  }

  if (group === 'user' || group === 'token' || group === 'audit') {
    const actions = { user: 'add, role or list', token: 'create', audit: 'verify or adopt' }[group];
    throw new UsageError(action === undefined ? `"${group}" needs a subcommand: ${actions}` : `unknown command "${command}"; "${group}" takes ${actions}`);
  }
  throw new UsageError(`unknown command "${group}"`);
}

function describeDatabase(config: DatabaseConfig): string {
  if (config.kind === 'pglite') return `PGlite in ${config.dataDir}`;
  const url = new URL(config.url);
  if (url.password) url.password = '***';
  return `PostgreSQL at ${url.toString()}`;
}

function describeFailure(error: unknown, config: DatabaseConfig): string {
  if (error instanceof AppError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  const locked = /data directory (.+) is in use by process (\d+)/.exec(message);
  if (config.kind === 'pglite' && locked) {
    return (
      `the PGlite data directory ${locked[1]} is in use by process ${locked[2]}, most likely the Plangate server ` +
      '(PGlite allows one process per directory). Stop the server, or use the REST API while it runs ' +
      '(with an admin token): POST /api/users, PATCH /api/users/{username}, POST /api/tokens.'
    );
  }
  return message;
}

async function main(argv: string[]): Promise<number> {
  let run: Run | 'help';
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        role: { type: 'string' },
        password: { type: 'string' },
        service: { type: 'boolean' },
        label: { type: 'string' },
        'expires-days': { type: 'string' },
        'replace-head': { type: 'boolean' },
        concurrency: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    run = plan(positionals, values);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) throw error;
    // parseArgs explains an unknown option at length; the option's name is what helps.
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message);
    const message = unknown ? `unknown option ${unknown[1]}` : (error as Error).message;
    console.error(`plangate: ${message}\nRun "npm run plangate -- help" for usage.`);
    return 2;
  }
  if (run === 'help') {
    console.log(USAGE);
    return 0;
  }

  const config = databaseConfigFromEnv();
  console.error(`plangate: database: ${describeDatabase(config)}`);
  let handle;
  try {
    handle = await openDatabase(config);
  } catch (error) {
    console.error(`plangate: cannot open the database: ${describeFailure(error, config)}`);
    return 1;
  }
  try {
    return await run(handle.db, handle);
  } catch (error) {
    console.error(`plangate: ${describeFailure(error, config)}`);
    return 1;
  } finally {
    await handle.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('plangate: unexpected failure:', error);
    process.exitCode = 1;
  },
);
