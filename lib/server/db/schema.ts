import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, primaryKey, text, timestamp, index, foreignKey } from 'drizzle-orm/pg-core';
import type { PlanDocument } from '@/lib/plan';

export const plans = pgTable(
  'plans',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    status: text('status').notNull().default('draft'),
    // The head pointer is the compare-and-swap target for saves: an UPDATE guarded by
    // the caller's base revision lets exactly one of many concurrent saves win.
    headRevision: integer('head_revision').notNull(),
    headContentHash: text('head_content_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
  },
  (t) => [index('plans_updated_at_idx').on(t.updatedAt)],
);

/** Immutable: a row is written once and never updated or deleted. */
export const planRevisions = pgTable(
  'plan_revisions',
  {
    planId: text('plan_id').notNull(),
    revision: integer('revision').notNull(),
    parentRevision: integer('parent_revision'),
    body: jsonb('body').$type<PlanDocument>().notNull(),
    contentHash: text('content_hash').notNull(),
    author: text('author').notNull(),
    message: text('message').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.planId, t.revision] }),
    foreignKey({ columns: [t.planId], foreignColumns: [plans.id] }).onDelete('cascade'),
  ],
);

export const dbSchema = { plans, planRevisions };
