import 'server-only';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { ResourceSnapshot } from '@/lib/approval/approved-resources';
import { describeTie, type AccountTie } from '@/lib/approval/gate';
import { ROLES, hasRole, roleOf, type Role } from '@/lib/auth/roles';
import { runShapers } from '../approval/recent-editors';
import { accountTies } from '../auth/account-ties';
import type { Principal } from '../auth/principal-type';
import type { Database } from '../platform/db/client';
import { runs, user } from '../platform/db/schema';
import { AppError } from '../platform/errors';

// Who may decide a gate of a run: the plan's four-eyes rule, applied to the run. Not whoever
// started the run, not whoever shaped the revision it runs (wrote a revision of it, or changed
// a registry resource it routes to, since the full approval before the one it runs under),
// not an account tied by creation to any of them (an admin's sock puppet), never a service
// account, and only approvers and admins. The same rule refuses a decision, lists the people
// a waiting gate notifies, and says on the run page why someone cannot decide.

const DECIDING_ROLES: Role[] = ROLES.filter((role) => hasRole(role, 'approver'));

type RunRef = Pick<typeof runs.$inferSelect, 'id' | 'planId' | 'revision' | 'startedBy' | 'resources'>;

/** Who may not decide a run's gates, and why: read once per decision or notice. */
export interface GateExclusions {
  startedBy: string;
  authors: ReadonlySet<string>;
  resourceEditors: ReadonlySet<string>;
  ties: ReadonlyMap<string, AccountTie>;
}

export async function gateExclusions(db: Database, run: RunRef): Promise<GateExclusions> {
  const snapshot = ResourceSnapshot.safeParse(run.resources);
  // An unreadable snapshot (the run cannot go on anyway) counts every registry change as touching it.
  const shapers = await runShapers(db, run, snapshot.success ? snapshot.data : null);
  const ties = await accountTies(db, [run.startedBy, ...shapers.authors, ...shapers.resourceEditors]);
  return { startedBy: run.startedBy, authors: new Set(shapers.authors), resourceEditors: new Set(shapers.resourceEditors), ties };
}

/** Nothing runs unless a named person approved it: an automation's token decides no gate, of any run. */
export function automationRefusal(person: { username: string; service: boolean }): string | null {
  return person.service ? `${person.username} is a service account; a person with the approver role must decide a gate` : null;
}

/** Why `person` may not decide this run's gates, or null when they may. */
export function gateRefusalOf(exclusions: GateExclusions, person: { username: string; role: Role; service: boolean }): string | null {
  const name = person.username;
  const automation = automationRefusal(person);
  if (automation) return automation;
  if (!hasRole(person.role, 'approver')) return `An approver decides this gate. ${name} has the ${person.role} role`;
  if (name === exclusions.startedBy) return `${name} started this run, so another approver must decide its gates (four-eyes)`;
  if (exclusions.authors.has(name)) return `${name} wrote the revision this run runs (since the plan's approval before it), so another approver must decide its gates (four-eyes)`;
  if (exclusions.resourceEditors.has(name)) return `${name} changed a registry resource this run routes to before its revision was approved, so another approver must decide its gates (four-eyes)`;
  const tie = exclusions.ties.get(name);
  if (tie) {
    const role = tie.person === exclusions.startedBy ? 'started this run' : 'shaped the revision it runs';
    return `${name} counts as ${tie.person}, who ${role}: ${describeTie(tie)}. Another approver must decide its gates (four-eyes)`;
  }
  return null;
}

/** Refuses (403, nothing changed) a decision at `run`'s gates by someone the rule excludes. */
export async function assertMayDecideGate(tx: Database, run: RunRef, principal: Principal): Promise<void> {
  const refusal = gateRefusalOf(await gateExclusions(tx, run), principal);
  if (refusal) throw new AppError('forbidden', 403, refusal, undefined, { reason: 'four_eyes' });
}

/** Every person who may decide `run`'s gates, by username, in name order. */
export async function gateDeciders(tx: Database, run: RunRef, exclusions?: GateExclusions): Promise<string[]> {
  const excluded = exclusions ?? (await gateExclusions(tx, run));
  const rows = await tx
    .select({ username: user.username, name: user.name, role: user.role, service: user.service })
    .from(user)
    .where(and(eq(user.service, false), inArray(user.role, DECIDING_ROLES)))
    .orderBy(asc(user.username));
  return rows
    .map((row) => ({ username: row.username ?? row.name, role: roleOf(row.role), service: row.service }))
    .filter((person) => gateRefusalOf(excluded, person) === null)
    .map((person) => person.username);
}

/** Why `person` cannot decide the gates of run `runId`, or null: for the run page, which shows the reason instead of the buttons. */
export async function gateRefusalFor(db: Database, runId: string, person: Pick<Principal, 'username' | 'role' | 'service'>): Promise<string | null> {
  const [run] = await db.select().from(runs).where(eq(runs.id, runId));
  if (!run) return null;
  return gateRefusalOf(await gateExclusions(db, run), person);
}
