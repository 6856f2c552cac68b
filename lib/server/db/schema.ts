import { sql } from 'drizzle-orm';
import { bigserial, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, index, foreignKey } from 'drizzle-orm/pg-core';
import type { PlanDocument } from '@/lib/plan';
import type { ValidationResult } from '@/lib/validate';
import { authSchema, user } from './auth-schema';

export * from './auth-schema';

export const plans = pgTable(
  'plans',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    status: text('status').notNull().default('draft'),
    // Who sent the head revision to review: they may not also approve it (four-eyes).
    submittedBy: text('submitted_by'),
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

/**
 * One decision on one exact revision. Never deleted: a newer revision marks it superseded,
 * so history keeps what was approved and when it stopped counting.
 */
export const planReviews = pgTable(
  'plan_reviews',
  {
    id: serial('id').primaryKey(),
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    contentHash: text('content_hash').notNull(),
    decision: text('decision').notNull(),
    reviewer: text('reviewer').notNull(),
    comment: text('comment').notNull().default(''),
    validation: jsonb('validation').$type<ValidationResult>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    supersededAt: timestamp('superseded_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('plan_reviews_plan_idx').on(t.planId, t.revision)],
);

/** API tokens are stored as SHA-256 hashes; the token itself is shown once, at creation. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    label: text('label').notNull().default(''),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('api_tokens_user_idx').on(t.userId)],
);

/**
 * Append-only and hash-chained: each row carries the hash of the one before it, so an
 * edited or deleted row breaks the chain that `plangate audit verify` walks.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    // Text, not timestamp: the hash covers this exact string, and a timestamp column would
    // round it differently on the way back.
    at: text('at').notNull(),
    kind: text('kind').notNull(),
    actor: text('actor').notNull(),
    planId: text('plan_id'),
    revision: integer('revision'),
    contentHash: text('content_hash'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull().unique(),
  },
  (t) => [index('audit_events_plan_idx').on(t.planId, t.seq)],
);

/** A dry run of one exact revision, kept so the approver sees the evidence and runs can be compared. */
export const dryRuns = pgTable(
  'dry_runs',
  {
    id: serial('id').primaryKey(),
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    contentHash: text('content_hash').notNull(),
    options: jsonb('options').$type<Record<string, unknown>>().notNull(),
    result: jsonb('result').$type<Record<string, unknown>>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [index('dry_runs_plan_idx').on(t.planId, t.id)],
);

/**
 * A replanner's proposal for one exact revision, kept between proposing and applying so
 * what is applied is what the operator reviewed. Applying stamps the revision it made.
 */
export const replanProposals = pgTable(
  'replan_proposals',
  {
    id: text('id').primaryKey(),
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    contentHash: text('content_hash').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    appliedRevision: integer('applied_revision'),
    appliedAt: timestamp('applied_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('replan_proposals_plan_idx').on(t.planId, t.createdAt)],
);

/** The resource registry: one row per agent, tool, function, LLM or DSL workflow. */
export const registryResources = pgTable(
  'registry_resources',
  {
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] })],
);

/** Process-independent settings the app makes for itself (e.g. the session signing secret). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const dbSchema = { plans, planRevisions, planReviews, apiTokens, auditEvents, dryRuns, replanProposals, registryResources, appSettings, ...authSchema };
