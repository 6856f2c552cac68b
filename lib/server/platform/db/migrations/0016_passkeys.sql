CREATE TABLE "decision_signatures" (
	"id" serial PRIMARY KEY NOT NULL,
	"review_id" integer,
	"run_id" text,
	"task_id" text,
	"generation" integer,
	"kid" text NOT NULL,
	"challenge" text NOT NULL,
	"signed" jsonb NOT NULL,
	"authenticator_data" text NOT NULL,
	"client_data_json" text NOT NULL,
	"signature" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "decision_signatures_challenge_unique" UNIQUE("challenge")
);
--> statement-breakpoint
CREATE TABLE "passkey_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"challenge" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passkeys" (
	"kid" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"public_key" text NOT NULL,
	"jwk" jsonb NOT NULL,
	"alg" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rp_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "decision_signatures" ADD CONSTRAINT "decision_signatures_review_id_plan_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."plan_reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_signatures" ADD CONSTRAINT "decision_signatures_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_signatures" ADD CONSTRAINT "decision_signatures_kid_passkeys_kid_fk" FOREIGN KEY ("kid") REFERENCES "public"."passkeys"("kid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "decision_signatures_review_idx" ON "decision_signatures" USING btree ("review_id");--> statement-breakpoint
CREATE UNIQUE INDEX "decision_signatures_gate_idx" ON "decision_signatures" USING btree ("run_id","task_id","generation");--> statement-breakpoint
CREATE INDEX "passkeys_username_idx" ON "passkeys" USING btree ("username");