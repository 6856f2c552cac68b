ALTER TABLE "gate_decisions" ADD COLUMN "input" jsonb;--> statement-breakpoint
ALTER TABLE "gate_decisions" ADD COLUMN "input_hash" text;--> statement-breakpoint
ALTER TABLE "gate_decisions" ADD COLUMN "edited" boolean DEFAULT false NOT NULL;