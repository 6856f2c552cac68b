CREATE TABLE "plan_revisions" (
	"plan_id" text NOT NULL,
	"revision" integer NOT NULL,
	"parent_revision" integer,
	"body" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"author" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_revisions_plan_id_revision_pk" PRIMARY KEY("plan_id","revision")
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"head_revision" integer NOT NULL,
	"head_content_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plan_revisions" ADD CONSTRAINT "plan_revisions_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plans_updated_at_idx" ON "plans" USING btree ("updated_at");