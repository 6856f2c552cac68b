/**
 * Counts the statements a database handle is sent while a bench measurement runs, by kind,
 * so the engine's cost per task can be read as statements (and round trips) rather than
 * guessed from wall time. On PostgreSQL every `pg` client query is one round trip (the app's
 * pool and pg-boss's both use the `pg` module); on PGlite every query or exec on its one
 * connection is one turn of that connection. BEGIN/COMMIT are counted as statements too.
 */
import pg from 'pg';
import type { DatabaseHandle } from '../lib/server/platform/db/client';

export interface StatementCounts {
  total: number;
  /** Statements by kind (the statement's first words and table), most frequent first. */
  byKind: Array<[string, number]>;
}

/** A short name for a statement: its verb and the table or CTE it starts with. */
function kindOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').replace(/"/g, '').trim();
  const head = flat.slice(0, 200).toLowerCase();
  const verb = /^(with|select|insert into|update|delete from|begin|commit|rollback|savepoint|release|notify|listen)\b ?([\w.]*)/.exec(head);
  if (!verb) return head.slice(0, 40);
  if (verb[1] === 'with') {
    // The first data-modifying statement in the CTEs says what it does.
    const inner = /\b(insert into|update|delete from) ([\w.]+)/.exec(head);
    return inner ? `with … ${inner[1]} ${inner[2]}` : `with ${verb[2]}`;
  }
  if (verb[1] === 'select') {
    const from = /\bfrom ([\w.]+)/.exec(head);
    const lock = /\bfor (no key update|update|share)\b/.exec(flat.toLowerCase());
    return `select ${from ? from[1] : head.slice(7, 40)}${lock ? ` for ${lock[1]}` : ''}`;
  }
  return `${verb[1]} ${verb[2]}`.trim();
}

/** Starts counting what `handle` is sent; `stop` answers the counts and stops. */
export function countStatements(handle: DatabaseHandle): { stop(): StatementCounts } {
  const counts = new Map<string, number>();
  const add = (text: unknown) => {
    const kind = typeof text === 'string' ? kindOf(text) : '(prepared)';
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  };
  let restore: () => void;
  if (handle.jobs.kind === 'postgres') {
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const config = args[0] as string | { text?: string };
      add(typeof config === 'string' ? config : config?.text);
      return original.apply(this, args);
    };
    restore = () => (proto.query = original);
  } else {
    // PGlite logs each query and exec it runs when its debug level is above 0: one line per turn of its connection.
    const client = handle.jobs.client as unknown as { debug: number };
    const debug = client.debug;
    const log = console.log;
    client.debug = 1;
    console.log = (...args: unknown[]) => {
      if (args[0] === 'runQuery' || args[0] === 'runExec') add(args[1]);
      else log(...args);
    };
    restore = () => {
      client.debug = debug;
      console.log = log;
    };
  }
  return {
    stop() {
      restore();
      const byKind = [...counts].sort((a, b) => b[1] - a[1]);
      return { total: byKind.reduce((n, [, c]) => n + c, 0), byKind };
    },
  };
}
