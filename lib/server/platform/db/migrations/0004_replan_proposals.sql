CREATE TABLE "replan_proposals" (
	"id" text PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"revision" integer NOT NULL,
	"content_hash" text NOT NULL,
	"body" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"applied_revision" integer,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "replan_proposals" ADD CONSTRAINT "replan_proposals_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "replan_proposals_plan_idx" ON "replan_proposals" USING btree ("plan_id","created_at");