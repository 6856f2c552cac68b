import 'server-only';
import { sql } from 'drizzle-orm';
import type { AccountTie } from '@/lib/approval/gate';
import type { Database } from '../platform/db/client';
import { user } from '../platform/db/schema';

// An admin can make accounts, so an admin could make a second account (a sock puppet) and
// approve their own work with it. Four-eyes therefore treats an account and whoever made it
// as one person: for the people who shaped something (authors, submitters, a run's starter),
// every account up their chain of creators and every account down the chain of accounts they
// made is tied to them. Chains are followed transitively (a puppet's puppet is a puppet) and
// at most MAX_DEPTH links deep, so a corrupted row cannot make the query run away.

const MAX_DEPTH = 16;

/**
 * Every account tied by creation to one of `people`, with the person it is tied to and how.
 * `people` themselves are not listed (unless tied to another of them): four-eyes already
 * refuses them by name, with its own message.
 */
export async function accountTies(db: Database, people: Iterable<string>): Promise<Map<string, AccountTie>> {
  const names = [...new Set(people)].filter(Boolean);
  const ties = new Map<string, AccountTie>();
  if (!names.length) return ties;
  const list = sql.join(
    names.map((name) => sql`${name}`),
    sql`, `,
  );
  const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
  // Only an account makes puppets: a system actor that seeded users and plans alike
  // ('plangate-demo', 'cli') is no person, so it ties nobody together.
  const accounts = sql`select username from ${user} where username is not null`;
  // Up: who made each person's account, and who made theirs.
  const up = rows<{ person: string; creator: string; depth: number }>(await db.execute(sql`
    with recursive chain(person, creator, depth) as (
      select username, created_by, 1 from ${user} where username in (${list}) and created_by in (${accounts})
      union all
      select chain.person, u.created_by, chain.depth + 1 from chain join ${user} u on u.username = chain.creator
      where u.created_by in (${accounts}) and chain.depth < ${MAX_DEPTH}
    )
    select person, creator, min(depth)::int as depth from chain group by person, creator`));
  // Down: the accounts each person made, and the accounts those made.
  const down = rows<{ person: string; made: string; depth: number }>(await db.execute(sql`
    with recursive chain(person, made, depth) as (
      select created_by, username, 1 from ${user} where created_by in (${list}) and created_by in (${accounts}) and username is not null
      union all
      select chain.person, u.username, chain.depth + 1 from chain join ${user} u on u.created_by = chain.made
      where u.username is not null and chain.depth < ${MAX_DEPTH}
    )
    select person, made, min(depth)::int as depth from chain group by person, made`));
  for (const row of up) if (!ties.has(row.creator)) ties.set(row.creator, { person: row.person, relation: 'creator_of', direct: row.depth === 1 });
  for (const row of down) if (!ties.has(row.made)) ties.set(row.made, { person: row.person, relation: 'created_by', direct: row.depth === 1 });
  return ties;
}
