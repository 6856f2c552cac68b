-- A dry run's tasks move out of dry_runs.result into pages of their own (dry_run_tasks, at
-- most 500 tasks a page, as lib/simulate/dry-run-pages.ts cuts them): on PGlite one 4.6 MB
-- jsonb value of a 20,000-task run held the server's thread for hundreds of ms on every
-- store and read. Dry runs stored before keep their evidence: their
-- tasks are copied into pages in order, then left out of result, and task_count says how
-- many there are. A row whose tasks are not an array (no dry run wrote one) keeps them in
-- result, where reading it reports the row, as before.
CREATE TABLE "dry_run_tasks" (
	"dry_run_id" integer NOT NULL,
	"page" integer NOT NULL,
	"tasks" json NOT NULL,
	CONSTRAINT "dry_run_tasks_dry_run_id_page_pk" PRIMARY KEY("dry_run_id","page")
);
--> statement-breakpoint
ALTER TABLE "dry_run_tasks" ADD CONSTRAINT "dry_run_tasks_dry_run_id_dry_runs_id_fk" FOREIGN KEY ("dry_run_id") REFERENCES "public"."dry_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dry_runs" ADD COLUMN "task_count" integer;--> statement-breakpoint
INSERT INTO "dry_run_tasks" ("dry_run_id", "page", "tasks")
SELECT d."id", (t.ordinality - 1) / 500, json_agg(t.task ORDER BY t.ordinality)
FROM "dry_runs" d, jsonb_array_elements(d."result" -> 'tasks') WITH ORDINALITY AS t(task, ordinality)
WHERE jsonb_typeof(d."result" -> 'tasks') = 'array'
GROUP BY d."id", (t.ordinality - 1) / 500;--> statement-breakpoint
UPDATE "dry_runs" SET "task_count" = jsonb_array_length("result" -> 'tasks'), "result" = "result" - 'tasks'
WHERE jsonb_typeof("result" -> 'tasks') = 'array';--> statement-breakpoint
UPDATE "dry_runs" SET "task_count" = 0 WHERE "task_count" IS NULL;--> statement-breakpoint
ALTER TABLE "dry_runs" ALTER COLUMN "task_count" SET NOT NULL;
