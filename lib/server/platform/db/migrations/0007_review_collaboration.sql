CREATE TABLE "inbox_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"kind" text NOT NULL,
	"plan_id" text NOT NULL,
	"revision" integer,
	"task_id" text,
	"actor" text NOT NULL,
	"summary" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "plan_comments" (
	"id" text PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"task_id" text,
	"revision" integer NOT NULL,
	"author" text NOT NULL,
	"body" text NOT NULL,
	"review_id" integer,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text
);
--> statement-breakpoint
CREATE TABLE "plan_presence" (
	"plan_id" text NOT NULL,
	"username" text NOT NULL,
	"session_id" text NOT NULL,
	"revision" integer NOT NULL,
	"dirty" boolean DEFAULT false NOT NULL,
	"last_seen" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "plan_presence_plan_id_session_id_pk" PRIMARY KEY("plan_id","session_id")
);
--> statement-breakpoint
CREATE TABLE "review_requests" (
	"plan_id" text NOT NULL,
	"revision" integer NOT NULL,
	"reviewer" text NOT NULL,
	"requested_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "review_requests_plan_id_revision_reviewer_pk" PRIMARY KEY("plan_id","revision","reviewer")
);
--> statement-breakpoint
CREATE TABLE "review_task_views" (
	"plan_id" text NOT NULL,
	"revision" integer NOT NULL,
	"username" text NOT NULL,
	"task_id" text NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "review_task_views_plan_id_revision_username_task_id_pk" PRIMARY KEY("plan_id","revision","username","task_id")
);
--> statement-breakpoint
ALTER TABLE "inbox_items" ADD CONSTRAINT "inbox_items_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_comments" ADD CONSTRAINT "plan_comments_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_presence" ADD CONSTRAINT "plan_presence_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_requests" ADD CONSTRAINT "review_requests_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_task_views" ADD CONSTRAINT "review_task_views_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbox_items_recipient_idx" ON "inbox_items" USING btree ("recipient","created_at");--> statement-breakpoint
CREATE INDEX "plan_comments_plan_idx" ON "plan_comments" USING btree ("plan_id","created_at");--> statement-breakpoint
CREATE INDEX "plan_comments_thread_idx" ON "plan_comments" USING btree ("thread_id");--> statement-breakpoint
CREATE INDEX "plan_presence_seen_idx" ON "plan_presence" USING btree ("plan_id","last_seen");--> statement-breakpoint
CREATE INDEX "review_requests_reviewer_idx" ON "review_requests" USING btree ("reviewer","created_at");