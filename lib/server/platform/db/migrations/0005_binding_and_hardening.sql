CREATE TABLE "audit_head" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"signature" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plan_reviews" ADD COLUMN "resources" jsonb;--> statement-breakpoint
ALTER TABLE "plan_reviews" ADD COLUMN "resources_hash" text;--> statement-breakpoint
ALTER TABLE "plan_reviews" ADD COLUMN "superseded_reason" text;--> statement-breakpoint
ALTER TABLE "plan_revisions" ADD COLUMN "layout_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "content_revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "service" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "sign_in_failures_key_idx" ON "sign_in_failures" USING btree ("key","at");--> statement-breakpoint
UPDATE "plans" SET "content_revision" = "head_revision";--> statement-breakpoint
UPDATE "user" SET "service" = true WHERE "username" = 'plangate-admin';--> statement-breakpoint
-- The session secret no longer lives beside the sessions it signs.
DELETE FROM "app_settings" WHERE "key" = 'auth_secret';
--> statement-breakpoint
-- Accounts without a password were made for automation: they are service accounts now.
UPDATE "user" SET "service" = true WHERE NOT EXISTS (SELECT 1 FROM "account" a WHERE a."user_id" = "user"."id" AND a."password" IS NOT NULL);--> statement-breakpoint
-- A token acts only as the person who made it for themselves: tokens an admin (or the CLI)
-- made in a person's name before this rule are revoked.
UPDATE "api_tokens" t SET "revoked_at" = now()
WHERE t."revoked_at" IS NULL
  AND EXISTS (SELECT 1 FROM "user" u WHERE u."id" = t."user_id" AND NOT u."service")
  AND NOT EXISTS (
    SELECT 1 FROM "audit_events" e JOIN "user" u ON u."id" = t."user_id"
    WHERE e."kind" = 'token_created' AND e."detail"->>'token_id' = t."id" AND e."actor" = u."username"
  );
