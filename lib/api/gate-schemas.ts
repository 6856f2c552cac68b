import { z } from 'zod';
import { Role } from '@/lib/auth/roles';
import { DECISIONS } from '@/lib/approval/gate';
import { ResourceSnapshot } from '@/lib/approval/approved-resources';
import { Job, SubGraph, TaskData } from '@/lib/plan';
import { ValidationResult } from '@/lib/validate';
import { DecisionSignature } from './passkey-schemas';
import { PlanStatus, RevisionNumber } from './schemas';

// Request and response shapes of the approval gate, the audit trail, users and tokens.

export const ContentHash = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'A content hash is "sha256:" and 64 hex digits');
// PostgreSQL text cannot hold NUL and jsonb refuses unpaired surrogates; refuse them here
// with a 400 rather than fail in the database.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const StorableText = z.string().refine((text) => !UNSTORABLE.test(text), 'NUL characters and unpaired surrogates cannot be stored');

const Comment = StorableText.pipe(z.string().max(4000, 'Comments are at most 4,000 characters')).default('');

export const DecisionRequest = z.strictObject({
  revision: RevisionNumber,
  content_hash: ContentHash,
  comment: Comment,
  /** The hash of the registry resources the reviewer was shown; a decision on changed ones is stale. */
  resources_hash: ContentHash.optional(),
  /** The decider's passkey signature over exactly this decision (docs/security.md); required while PLANGATE_REQUIRE_SIGNED_APPROVALS is on. */
  signature: DecisionSignature.optional(),
});
export type DecisionRequest = z.infer<typeof DecisionRequest>;

export const Review = z.object({
  id: z.number().int(),
  revision: z.number().int(),
  content_hash: z.string(),
  decision: z.enum(DECISIONS),
  reviewer: z.string(),
  comment: z.string(),
  validation: ValidationResult,
  /** The hash of the registry resources this decision covered (null before resources were bound). */
  resources_hash: z.string().nullable(),
  created_at: z.string(),
  /** When a newer revision, an objection or a registry change voided this decision; null while it stands. */
  superseded_at: z.string().nullable(),
  superseded_reason: z.enum(['revision', 'objection', 'registry_changed']).nullable(),
});
export type Review = z.infer<typeof Review>;

/** An approver asked by name to review a revision. */
export const ReviewRequest = z.object({ reviewer: z.string(), requested_by: z.string(), revision: z.number().int(), requested_at: z.string() });
export type ReviewRequest = z.infer<typeof ReviewRequest>;

export const GateResponse = z.object({
  id: z.string(),
  status: PlanStatus,
  revision: z.number().int(),
  content_hash: z.string(),
  /** The registry resources the head routes to, as they are now: send it with a decision to pin them. */
  resources_hash: z.string().nullable(),
  approvals_required: z.number().int(),
  reviews: z.array(Review),
  /** Who the head's content was submitted to by name, oldest request first. */
  requested_reviewers: z.array(ReviewRequest),
});
export type GateResponse = z.infer<typeof GateResponse>;

export const GateTransition = z.object({ id: z.string(), status: PlanStatus, revision: z.number().int(), content_hash: z.string() });
export const DecisionResponse = GateTransition.extend({ review: Review });

/**
 * The executors' hand-off. Under `hash_version` 2, `content_hash` is "sha256:" + hex SHA-256
 * of the RFC 8785 canonical JSON of `{ hash_version: 2, job, plan, subgraphs }` with each of
 * `plan.planned_tasks` replaced by its own such hash; under 1, of `document` itself.
 * `resources.hash` is the SHA-256 of `{ targets, definitions }`.
 */
export const ApprovedResponse = z.object({
  plan_id: z.string().describe('The plan: a signed approval names it, so one signed for another plan is refused'),
  revision: z.number().int(),
  content_hash: z.string(),
  hash_version: z.union([z.literal(1), z.literal(2)]).describe('Which definition content_hash follows (see the README\'s recipe)'),
  document: z.object({ plan: TaskData, job: Job, subgraphs: z.array(SubGraph) }),
  resources: ResourceSnapshot.extend({ hash: z.string() }),
  approvals: z.array(
    Review.extend({
      signature: DecisionSignature.nullable().describe("The approver's passkey signature over { plan_id, revision, content_hash, resources_hash, decision, at }; null for an unsigned approval (docs/security.md)"),
    }),
  ),
});

export const AuditEvent = z.object({
  seq: z.number().int(),
  at: z.string(),
  kind: z.string(),
  actor: z.string(),
  plan_id: z.string().nullable(),
  revision: z.number().int().nullable(),
  content_hash: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  prev_hash: z.string(),
  hash: z.string(),
});
export const AuditResponse = z.object({ events: z.array(AuditEvent) });

export const USERNAME_PATTERN = /^[a-z0-9_.-]{3,32}$/;
export const Username = z
  .string()
  .trim()
  .toLowerCase()
  .regex(USERNAME_PATTERN, 'Usernames are 3 to 32 characters: lower-case letters, digits, ".", "_" or "-"');

export const MAX_REQUESTED_REVIEWERS = 20;

export const SubmitRequest = z.strictObject({
  revision: RevisionNumber.optional(),
  content_hash: ContentHash.optional(),
  /** Approvers asked by name to review it; each hears of it in their inbox. */
  reviewers: z
    .array(Username)
    .max(MAX_REQUESTED_REVIEWERS, `At most ${MAX_REQUESTED_REVIEWERS} reviewers can be requested`)
    .transform((names) => [...new Set(names)])
    .optional(),
});
export type SubmitRequest = z.infer<typeof SubmitRequest>;

/**
 * A person (`password`, signs in) or a service account (`service: true`, no password: API
 * tokens minted by an admin, and never a decision on a plan).
 */
export const CreateUserRequest = z
  .strictObject({
    username: Username,
    password: z.string().min(8, 'Passwords are at least 8 characters').max(128, 'Passwords are at most 128 characters').optional(),
    role: Role,
    service: z.boolean().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.service === true && value.password !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'A service account has no password; leave it out' });
    }
    if (value.service !== true && value.password === undefined) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'A person needs a password (or send service: true for a service account)' });
    }
  });
export type CreateUserRequest = z.infer<typeof CreateUserRequest>;

export const UserResponse = z.object({ id: z.string(), username: z.string(), role: Role, service: z.boolean(), created_at: z.string() });
export type UserResponse = z.infer<typeof UserResponse>;
export const UserListResponse = z.object({ users: z.array(UserResponse) });

export const SetRoleRequest = z.strictObject({ role: Role });

export const CreateTokenRequest = z.strictObject({
  username: Username.optional(),
  label: StorableText.pipe(z.string().max(200)).optional(),
  expires_in_days: z.number().int().min(1).max(3650).optional(),
});
export type CreateTokenRequest = z.infer<typeof CreateTokenRequest>;

export const TokenResponse = z.object({ token: z.string(), id: z.string(), username: z.string(), expires_at: z.string().nullable() });
