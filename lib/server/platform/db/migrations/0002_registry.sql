CREATE TABLE "registry_resources" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"body" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registry_resources_kind_key_pk" PRIMARY KEY("kind","key")
);
