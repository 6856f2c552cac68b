CREATE TABLE "plan_tasks" (
	"plan_id" text NOT NULL,
	"hash" text NOT NULL,
	"body" jsonb NOT NULL,
	"bytes" integer NOT NULL,
	CONSTRAINT "plan_tasks_plan_id_hash_pk" PRIMARY KEY("plan_id","hash")
);
--> statement-breakpoint
ALTER TABLE "plan_revisions" ADD COLUMN "hash_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_revisions" ADD COLUMN "task_ids" text[];--> statement-breakpoint
ALTER TABLE "plan_revisions" ADD COLUMN "task_hashes" text[];--> statement-breakpoint
ALTER TABLE "plan_revisions" ADD COLUMN "document_bytes" integer;--> statement-breakpoint
ALTER TABLE "plan_tasks" ADD CONSTRAINT "plan_tasks_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;