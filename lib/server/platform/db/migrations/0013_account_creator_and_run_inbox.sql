ALTER TABLE "inbox_items" ADD COLUMN "run_id" text;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "created_by" text;--> statement-breakpoint
ALTER TABLE "inbox_items" ADD CONSTRAINT "inbox_items_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Accounts made before this column existed: the audit chain names who created each one.
UPDATE "user" SET "created_by" = "made"."actor" FROM (SELECT DISTINCT ON ("detail"->>'username') "detail"->>'username' AS "username", "actor" FROM "audit_events" WHERE "kind" = 'user_created' ORDER BY "detail"->>'username', "seq" DESC) AS "made" WHERE "user"."username" = "made"."username";
