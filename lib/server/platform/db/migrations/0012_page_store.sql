CREATE TABLE "plan_pages" (
	"plan_id" text NOT NULL,
	"hash" text NOT NULL,
	"task_ids" text[] NOT NULL,
	"task_hashes" text[] NOT NULL,
	"positions" jsonb NOT NULL,
	CONSTRAINT "plan_pages_plan_id_hash_pk" PRIMARY KEY("plan_id","hash")
);
--> statement-breakpoint
ALTER TABLE "plan_revisions" ADD COLUMN "page_hashes" text[];--> statement-breakpoint
ALTER TABLE "plan_revisions" ADD COLUMN "task_count" integer;--> statement-breakpoint
ALTER TABLE "plan_pages" ADD CONSTRAINT "plan_pages_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;