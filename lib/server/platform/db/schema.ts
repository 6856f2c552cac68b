import 'server-only';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, integer, json, jsonb, pgTable, primaryKey, serial, text, timestamp, index, uniqueIndex, foreignKey, type AnyPgColumn } from 'drizzle-orm/pg-core';
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
    // The newest revision whose content (not only its layout) changed: reviews and
    // approvals bind to it, so a layout-only save after it keeps them standing.
    contentRevision: integer('content_revision').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
  },
  (t) => [index('plans_updated_at_idx').on(t.updatedAt)],
);

/**
 * Immutable: a row is written once and never updated or deleted (migration 0017 moved the
 * older rows to pages, leaving the document each reads back as it was).
 */
export const planRevisions = pgTable(
  'plan_revisions',
  {
    planId: text('plan_id').notNull(),
    revision: integer('revision').notNull(),
    parentRevision: integer('parent_revision'),
    // Read through lib/plan/migrations (readStoredDocument), never cast: the body is as it was
    // written under `schema_version`, which may be older than today's schema.
    body: jsonb('body').$type<unknown>().notNull(),
    /** The document schema version the body was written under (lib/plan/migrations). */
    schemaVersion: integer('schema_version').notNull().default(1),
    contentHash: text('content_hash').notNull(),
    author: text('author').notNull(),
    message: text('message').notNull().default(''),
    // Same content hash as its parent: only view data (positions, collapsed groups) moved.
    layoutOnly: boolean('layout_only').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
    /**
     * Which definition of lib/plan/hash `content_hash` follows (1: whole document; 2: over
     * task hashes). It says how the hash is computed, not how the row is laid out: every
     * row, of either version, stores its tasks the same way (page_hashes).
     */
    hashVersion: integer('hash_version').notNull().default(1),
    /**
     * The whole document's size as JSON, so a save of a few tasks checks the plan limit
     * without reading the rest. Null on a row hashed under version 1 (such a base is read whole).
     */
    documentBytes: integer('document_bytes'),
    // The revision's tasks (lib/server/plans/revision-pages): its pages of task references in
    // plan order, each a plan_pages row holding the ids, task hashes and task positions; the
    // tasks themselves are plan_tasks rows. The body holds the rest of the document, its
    // planned_tasks empty and only the positions that are not a task's.
    pageHashes: text('page_hashes').array().notNull(),
    taskCount: integer('task_count').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.planId, t.revision] }),
    foreignKey({ columns: [t.planId], foreignColumns: [plans.id] }).onDelete('cascade'),
  ],
);

/**
 * A plan's tasks, stored once per content (task hash) however many revisions hold them:
 * a revision that changes one task adds one row. Immutable, like the revisions.
 */
export const planTasks = pgTable(
  'plan_tasks',
  {
    planId: text('plan_id').notNull(),
    hash: text('hash').notNull(),
    body: jsonb('body').$type<unknown>().notNull(),
    /** The task's size as JSON (see plan_revisions.document_bytes). */
    bytes: integer('bytes').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.planId, t.hash] }),
    foreignKey({ columns: [t.planId], foreignColumns: [plans.id] }).onDelete('cascade'),
  ],
);

/**
 * A page of a revision's task references (lib/server/plans/revision-pages): ids, task hashes
 * and positions of ~128 consecutive tasks, stored once per plan by the page's hash, however
 * many revisions hold it. Immutable, like the revisions.
 */
export const planPages = pgTable(
  'plan_pages',
  {
    planId: text('plan_id').notNull(),
    hash: text('hash').notNull(),
    taskIds: text('task_ids').array().notNull(),
    taskHashes: text('task_hashes').array().notNull(),
    positions: jsonb('positions').$type<Record<string, { x: number; y: number }>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.planId, t.hash] }),
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
    // The registry resources the revision's tasks route to, as the reviewer saw them: part
    // of what an approval covers. Null on reviews made before approvals bound resources.
    resources: jsonb('resources').$type<Record<string, unknown>>(),
    resourcesHash: text('resources_hash'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    supersededAt: timestamp('superseded_at', { withTimezone: true, mode: 'date' }),
    // Why it stopped counting: 'revision', 'objection' or 'registry_changed'.
    supersededReason: text('superseded_reason'),
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

/**
 * The audit chain's newest event, signed with a key kept outside the database. Truncating,
 * re-hashing or appending to the chain without that key leaves this row disagreeing.
 */
export const auditHead = pgTable('audit_head', {
  id: text('id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  signature: text('signature').notNull(),
});

/** Failed sign-ins, counted in the database so a limit holds across every instance. */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [index('sign_in_failures_key_idx').on(t.key, t.at)],
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
    /** The result but its task list, which is in dry_run_tasks. */
    result: jsonb('result').$type<Record<string, unknown>>().notNull(),
    /** How many tasks its pages in dry_run_tasks hold together: a page gone missing is noticed. */
    taskCount: integer('task_count').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [index('dry_runs_plan_idx').on(t.planId, t.id)],
);

/**
 * A dry run's tasks, a page of a few hundred a row (lib/simulate/dry-run-pages.ts), as JSON
 * text kept as written (json, not jsonb): stored and read a few pages per statement, so
 * on PGlite, which runs on the server's thread, no statement handles the whole list.
 */
export const dryRunTasks = pgTable(
  'dry_run_tasks',
  {
    dryRunId: integer('dry_run_id')
      .notNull()
      .references(() => dryRuns.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    tasks: json('tasks').$type<unknown[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.dryRunId, t.page] })],
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


/**
 * An outgoing webhook an admin configured. The secret is a shared HMAC key the receiver
 * also holds, so it is stored as given (the server must sign with it) and never returned
 * after creation.
 */
export const webhooks = pgTable('webhooks', {
  id: text('id').primaryKey(),
  url: text('url').notNull(),
  events: jsonb('events').$type<string[]>().notNull(),
  secret: text('secret').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
});

export interface WebhookAttempt {
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/**
 * One event for one webhook, and its delivery log: written (pending) in the transaction that
 * caused the event, with its pg-boss job (same id); the webhook worker records each attempt.
 * `body` is the exact JSON sent (and signed) on every attempt.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    event: text('event').notNull(),
    planId: text('plan_id'),
    body: text('body').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    attemptLog: jsonb('attempt_log').$type<WebhookAttempt[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt), index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt)],
);

/**
 * A comment thread's entries. A thread is anchored to a task (or to the plan when task_id is
 * null) and outlives revisions: it is shown on every later revision while its task exists.
 * The first comment of a thread is its root (thread_id = id) and carries the thread's
 * resolved state.
 */
export const planComments = pgTable(
  'plan_comments',
  {
    id: text('id').primaryKey(),
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    threadId: text('thread_id').notNull(),
    taskId: text('task_id'),
    // The revision on screen when it was written.
    revision: integer('revision').notNull(),
    author: text('author').notNull(),
    body: text('body').notNull(),
    // Set when the comment came with a review decision (request changes, reject, approve).
    reviewId: integer('review_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    resolvedBy: text('resolved_by'),
  },
  (t) => [
    index('plan_comments_plan_idx').on(t.planId, t.createdAt),
    index('plan_comments_thread_idx').on(t.threadId),
    // The per-author rate limit counts a user's recent comments.
    index('plan_comments_author_idx').on(t.author, t.createdAt),
  ],
);

/** Reviewers named when a revision was sent to review: the people asked to act on it. */
export const reviewRequests = pgTable(
  'review_requests',
  {
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    reviewer: text('reviewer').notNull(),
    requestedBy: text('requested_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [primaryKey({ columns: [t.planId, t.revision, t.reviewer] }), index('review_requests_reviewer_idx').on(t.reviewer, t.createdAt)],
);

/** What a user should know about: written in the transaction of the action that caused it. */
export const inboxItems = pgTable(
  'inbox_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    recipient: text('recipient').notNull(),
    // 'review_requested' | 'decision' | 'comment' | 'mention' | 'approval_voided' | 'run'
    kind: text('kind').notNull(),
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    revision: integer('revision'),
    taskId: text('task_id'),
    // Set for news of a run (a gate waiting, a run stopped): the item links to the run itself.
    runId: text('run_id').references((): AnyPgColumn => runs.id, { onDelete: 'cascade' }),
    actor: text('actor').notNull(),
    summary: text('summary').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('inbox_items_recipient_idx').on(t.recipient, t.createdAt),
    // The header's unread count runs on every page and poll: only unread rows are indexed.
    index('inbox_items_unread_idx').on(t.recipient).where(sql`${t.readAt} is null`),
  ],
);

/** A reviewer's "viewed" mark on one task of one revision. */
export const reviewTaskViews = pgTable(
  'review_task_views',
  {
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    username: text('username').notNull(),
    taskId: text('task_id').notNull(),
    viewedAt: timestamp('viewed_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [primaryKey({ columns: [t.planId, t.revision, t.username, t.taskId] })],
);

/** Who has a plan open, refreshed by each open editor's heartbeat; stale rows mean gone. */
export const planPresence = pgTable(
  'plan_presence',
  {
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    // One row per browser tab, so two tabs of one user do not hide each other's edits.
    sessionId: text('session_id').notNull(),
    revision: integer('revision').notNull(),
    dirty: boolean('dirty').notNull().default(false),
    lastSeen: timestamp('last_seen', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [primaryKey({ columns: [t.planId, t.sessionId] }), index('plan_presence_seen_idx').on(t.planId, t.lastSeen), index('plan_presence_last_seen_idx').on(t.lastSeen)],
);

/**
 * One execution of one approved revision. The resource snapshot is the one its approval
 * bound: workers route every task through it, never through the live registry.
 */
export const runs = pgTable(
  'runs',
  {
    id: text('id').primaryKey(),
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    contentHash: text('content_hash').notNull(),
    resources: jsonb('resources').$type<unknown>().notNull(),
    resourcesHash: text('resources_hash').notNull(),
    // running | paused | awaiting_approval | needs_replan | succeeded | failed | cancelled
    state: text('state').notNull().default('running'),
    startedBy: text('started_by').notNull(),
    // A continuation (after a replan) reuses the outputs its parent recorded.
    parentRunId: text('parent_run_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  // A run is continued at most once (checked under the parent's row lock): this finds its continuation.
  (t) => [index('runs_plan_idx').on(t.planId, t.createdAt), index('runs_state_idx').on(t.state), index('runs_parent_run_idx').on(t.parentRunId)],
);

/** A task's progress within a run; its job in the queue carries out the attempts. */
export const taskRuns = pgTable(
  'task_runs',
  {
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    taskId: text('task_id').notNull(),
    // pending | blocked | running | retrying | awaiting_approval | succeeded | failed | skipped | cancelled
    state: text('state').notNull().default('pending'),
    // An operator's retry starts a new generation: its own gate decision, attempts and
    // idempotency key (run:task:generation), so a crash re-delivery repeats the key.
    generation: integer('generation').notNull().default(1),
    // Calls started in this generation.
    attempts: integer('attempts').notNull().default(0),
    // Dependencies not yet succeeded: the task is ready at 0. Counted down once per
    // dependency, when that one's success is `released` to its dependents.
    waitingOn: integer('waiting_on').notNull().default(0),
    released: boolean('released').notNull().default(false),
    // The task's current job in the queue; null while nothing is queued for it.
    jobId: text('job_id'),
    // The worker (run_workers.id) holding the attempt in flight: its lease is that worker's heartbeat.
    workerId: text('worker_id'),
    input: jsonb('input').$type<unknown>(),
    output: jsonb('output').$type<unknown>(),
    error: text('error'),
    // Why it failed: call | input | rejected | lost (its job died in the queue) | integrity.
    errorKind: text('error_kind'),
    // Set when the output was recorded by the run this one continues: the task does not run again.
    carriedFrom: text('carried_from'),
    gateDecidedBy: text('gate_decided_by'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.taskId] }),
    index('task_runs_state_idx').on(t.runId, t.state),
    // The takeover sweep reads the attempts in flight, every second, on every worker.
    index('task_runs_running_idx')
      .on(t.workerId)
      .where(sql`${t.state} = 'running'`),
  ],
);

/**
 * A person's decision at a task's gate, for one generation of it: the worker starts a gated
 * task only when an approve row exists for the generation it is about to run.
 */
export const gateDecisions = pgTable(
  'gate_decisions',
  {
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    taskId: text('task_id').notNull(),
    generation: integer('generation').notNull(),
    // approve | reject
    decision: text('decision').notNull(),
    decidedBy: text('decided_by').notNull(),
    comment: text('comment').notNull().default(''),
    // What the decider saw (or, edited, wrote) and approved: it replaces the resolved input when the task starts.
    input: jsonb('input').$type<unknown>(),
    inputHash: text('input_hash'),
    edited: boolean('edited').notNull().default(false),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [primaryKey({ columns: [t.runId, t.taskId, t.generation] })],
);

/**
 * The worker processes working runs, each with a heartbeat: an attempt whose worker's
 * heartbeat stopped is taken over by another worker within seconds.
 */
export const runWorkers = pgTable('run_workers', {
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
});

/** Append-only: the run view's live feed and the run's part of the record. */
export const runEvents = pgTable(
  'run_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    kind: text('kind').notNull(),
    taskId: text('task_id'),
    actor: text('actor'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('run_events_run_idx').on(t.runId, t.seq)],
);

/**
 * A person's passkey (WebAuthn credential) for signing decisions. Never deleted: a revoked
 * key stays published, so decisions it signed before its revocation still verify.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    // The credential id, base64url: the key's `kid` wherever a signature names it.
    kid: text('kid').primaryKey(),
    username: text('username').notNull(),
    label: text('label').notNull().default(''),
    // The COSE public key as the authenticator gave it (base64url), and the same key as a JWK.
    publicKey: text('public_key').notNull(),
    jwk: jsonb('jwk').$type<Record<string, string>>().notNull(),
    // ES256 | EdDSA
    alg: text('alg').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    // The relying party the credential is scoped to (the host name it was registered on).
    rpId: text('rp_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('passkeys_username_idx').on(t.username)],
);

/** A registration ceremony in progress: its random challenge, taken once and only until it expires. */
export const passkeyChallenges = pgTable('passkey_challenges', {
  id: text('id').primaryKey(),
  username: text('username').notNull(),
  challenge: text('challenge').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * The passkey signature over one decision: a plan review (`review_id`) or a gate decision
 * (`run_id`, `task_id`, `generation`). `challenge` (the hash of `signed`) is unique, so one
 * signed statement backs one decision only.
 */
export const decisionSignatures = pgTable(
  'decision_signatures',
  {
    id: serial('id').primaryKey(),
    reviewId: integer('review_id').references(() => planReviews.id, { onDelete: 'cascade' }),
    runId: text('run_id').references(() => runs.id, { onDelete: 'cascade' }),
    taskId: text('task_id'),
    generation: integer('generation'),
    kid: text('kid')
      .notNull()
      .references(() => passkeys.kid),
    challenge: text('challenge').notNull().unique(),
    signed: jsonb('signed').$type<Record<string, unknown>>().notNull(),
    authenticatorData: text('authenticator_data').notNull(),
    clientDataJson: text('client_data_json').notNull(),
    signature: text('signature').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [uniqueIndex('decision_signatures_review_idx').on(t.reviewId), uniqueIndex('decision_signatures_gate_idx').on(t.runId, t.taskId, t.generation)],
);

export const dbSchema = {
  plans,
  planRevisions,
  planTasks,
  planReviews,
  apiTokens,
  auditEvents,
  auditHead,
  signInFailures,
  dryRuns,
  dryRunTasks,
  replanProposals,
  registryResources,
  appSettings,
  webhooks,
  webhookDeliveries,
  planComments,
  reviewRequests,
  inboxItems,
  reviewTaskViews,
  planPresence,
  runs,
  taskRuns,
  gateDecisions,
  runWorkers,
  runEvents,
  passkeys,
  passkeyChallenges,
  decisionSignatures,
  ...authSchema,
};
