CREATE TABLE "gate_decisions" (
	"run_id" text NOT NULL,
	"task_id" text NOT NULL,
	"generation" integer NOT NULL,
	"decision" text NOT NULL,
	"decided_by" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"decided_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "gate_decisions_run_id_task_id_generation_pk" PRIMARY KEY("run_id","task_id","generation")
);
--> statement-breakpoint
CREATE TABLE "run_workers" (
	"id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "runs" ALTER COLUMN "state" SET DEFAULT 'running';--> statement-breakpoint
ALTER TABLE "task_runs" ADD COLUMN "generation" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "task_runs" ADD COLUMN "waiting_on" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "task_runs" ADD COLUMN "released" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Runs started before: what succeeded has been followed up already (their jobs carry the rest).
UPDATE "task_runs" SET "released" = true WHERE "state" = 'succeeded';--> statement-breakpoint
ALTER TABLE "task_runs" ADD COLUMN "worker_id" text;--> statement-breakpoint
ALTER TABLE "task_runs" ADD COLUMN "error_kind" text;--> statement-breakpoint
ALTER TABLE "gate_decisions" ADD CONSTRAINT "gate_decisions_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "runs_parent_run_idx" ON "runs" USING btree ("parent_run_id");--> statement-breakpoint
CREATE INDEX "task_runs_running_idx" ON "task_runs" USING btree ("worker_id") WHERE "task_runs"."state" = 'running';--> statement-breakpoint
ALTER TABLE "task_runs" DROP COLUMN "gate_job_id";