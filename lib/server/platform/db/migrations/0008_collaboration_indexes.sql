CREATE INDEX "inbox_items_unread_idx" ON "inbox_items" USING btree ("recipient") WHERE "inbox_items"."read_at" is null;--> statement-breakpoint
CREATE INDEX "plan_comments_author_idx" ON "plan_comments" USING btree ("author","created_at");--> statement-breakpoint
CREATE INDEX "plan_presence_last_seen_idx" ON "plan_presence" USING btree ("last_seen");