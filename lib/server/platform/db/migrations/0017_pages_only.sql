-- One storage layout for every revision: pages (lib/server/plans/revision-pages.ts). Rows
-- hashed under version 1 held their tasks in their body, and version-2 rows written before
-- pages held two arrays (task_ids, task_hashes). Their tasks move to plan_tasks and their
-- references to plan_pages, made exactly as the application makes them: a task is stored
-- under the SHA-256 of its RFC 8785 JSON, and pages are cut and hashed as pagesOf does. The
-- body read back (revision-body.ts) is then the body written, so no content hash and no
-- audit digest changes; content_hash and hash_version are not touched (the hash version says
-- how the hash is computed, not how the row is laid out). The helpers are dropped at the end.
--
-- ES Number::toString of a JSON number, as JSON.stringify writes it (jsonb keeps the digits).
CREATE FUNCTION "plangate_0017_number"(n numeric) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  t text := trim_scale(abs(n))::text;
  sign text := CASE WHEN n < 0 THEN '-' ELSE '' END;
  point int;
  fraction text;
  digits text;
  e int;
BEGIN
  IF n = 0 THEN RETURN '0'; END IF;
  IF abs(n) >= 0.000001 AND abs(n) < 1e21 THEN RETURN sign || t; END IF;
  point := strpos(t, '.');
  IF point = 0 THEN
    digits := rtrim(t, '0');
    e := length(t) - 1;
  ELSE
    fraction := substr(t, point + 1);
    digits := ltrim(fraction, '0');
    e := length(digits) - length(fraction) - 1;
  END IF;
  RETURN sign || left(digits, 1) || CASE WHEN length(digits) > 1 THEN '.' || substr(digits, 2) ELSE '' END
    || 'e' || CASE WHEN e > 0 THEN '+' ELSE '-' END || abs(e)::text;
END $$;
--> statement-breakpoint
-- A key's UTF-16 code units, big-endian: RFC 8785 (and JavaScript's sort) orders keys by them.
CREATE FUNCTION "plangate_0017_utf16"(s text) RETURNS bytea LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  units text := '';
  cp bigint;
BEGIN
  IF octet_length(s) = length(s) THEN
    RETURN decode(regexp_replace(encode(convert_to(s, 'UTF8'), 'hex'), '(..)', '00\1', 'g'), 'hex');
  END IF;
  FOR i IN 1..length(s) LOOP
    cp := ascii(substr(s, i, 1));
    IF cp < 65536 THEN
      units := units || lpad(to_hex(cp), 4, '0');
    ELSE
      units := units || to_hex(55296 + ((cp - 65536) >> 10)) || to_hex(56320 + ((cp - 65536) & 1023));
    END IF;
  END LOOP;
  RETURN decode(units, 'hex');
END $$;
--> statement-breakpoint
-- RFC 8785 canonical JSON, as lib/server/audit/digests.ts canonicalJson writes it.
CREATE FUNCTION "plangate_0017_canonical"(v jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  CASE jsonb_typeof(v)
    WHEN 'object' THEN
      RETURN '{' || coalesce((
        SELECT string_agg(to_jsonb(e.key)::text || ':' || "plangate_0017_canonical"(e.value), ',' ORDER BY "plangate_0017_utf16"(e.key))
        FROM jsonb_each(v) AS e), '') || '}';
    WHEN 'array' THEN
      RETURN '[' || coalesce((
        SELECT string_agg("plangate_0017_canonical"(a.value), ',' ORDER BY a.ord)
        FROM jsonb_array_elements(v) WITH ORDINALITY AS a(value, ord)), '') || ']';
    WHEN 'number' THEN
      RETURN "plangate_0017_number"(v::text::numeric);
    ELSE
      RETURN v::text;
  END CASE;
END $$;
--> statement-breakpoint
-- Math.imul's low 32 bits, unsigned, in bigints that cannot overflow (16-bit halves).
CREATE FUNCTION "plangate_0017_mul32"(a bigint, b bigint) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT ((a * (b & 65535)) + (((a * (b >> 16)) & 65535) << 16)) & 4294967295
$$;
--> statement-breakpoint
-- endsPage of revision-pages.ts: FNV-1a over the id's UTF-16 code units, murmur3's final mix.
CREATE FUNCTION "plangate_0017_ends_page"(id text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  h bigint := 2166136261;
  cp bigint;
BEGIN
  FOR i IN 1..length(id) LOOP
    cp := ascii(substr(id, i, 1));
    IF cp < 65536 THEN
      h := "plangate_0017_mul32"(h # cp, 16777619);
    ELSE
      h := "plangate_0017_mul32"(h # (55296 + ((cp - 65536) >> 10)), 16777619);
      h := "plangate_0017_mul32"(h # (56320 + ((cp - 65536) & 1023)), 16777619);
    END IF;
  END LOOP;
  h := "plangate_0017_mul32"(h # (h >> 16), 2246822507);
  h := "plangate_0017_mul32"(h # (h >> 13), 3266489909);
  RETURN ((h # (h >> 16)) & 127) = 0;
END $$;
--> statement-breakpoint
-- pagesOf of revision-pages.ts without a base: stores the pages (once per plan) and returns their hashes in plan order.
CREATE FUNCTION "plangate_0017_pages"(plan text, ids text[], hashes text[], positions jsonb) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  pages text[] := '{}';
  n int := coalesce(array_length(ids, 1), 0);
  start int := 1;
  lines text[];
  placed jsonb;
  xy jsonb;
  page text;
BEGIN
  FOR i IN 1..n LOOP
    IF i = n OR i + 1 - start = 1024 OR (i + 1 - start >= 16 AND "plangate_0017_ends_page"(ids[i])) THEN
      lines := '{}';
      placed := '{}';
      FOR j IN start..i LOOP
        xy := positions -> ids[j];
        IF xy IS NOT NULL AND jsonb_typeof(xy) <> 'null' THEN
          placed := placed || jsonb_build_object(ids[j], xy);
          lines := lines || (to_jsonb(ids[j])::text || ':' || hashes[j] || ':'
            || "plangate_0017_number"((xy ->> 'x')::numeric) || ',' || "plangate_0017_number"((xy ->> 'y')::numeric));
        ELSE
          lines := lines || (to_jsonb(ids[j])::text || ':' || hashes[j] || ':');
        END IF;
      END LOOP;
      page := 'sha256:' || encode(sha256(convert_to(array_to_string(lines, E'\n'), 'UTF8')), 'hex');
      INSERT INTO "plan_pages" ("plan_id", "hash", "task_ids", "task_hashes", "positions")
        VALUES (plan, page, ids[start:i], hashes[start:i], placed) ON CONFLICT DO NOTHING;
      pages := pages || page;
      start := i + 1;
    END IF;
  END LOOP;
  RETURN pages;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  r record;
  task jsonb;
  canonical text;
  hash text;
  ids text[];
  hashes text[];
  positions jsonb;
BEGIN
  FOR r IN SELECT "plan_id", "revision", "body", "task_ids", "task_hashes" FROM "plan_revisions" WHERE "page_hashes" IS NULL ORDER BY "plan_id", "revision" LOOP
    IF r.task_hashes IS NOT NULL THEN
      -- Written before pages: the tasks are stored already, by these hashes.
      ids := r.task_ids;
      hashes := r.task_hashes;
    ELSE
      -- The body holds its tasks: each is stored once per plan under its hash.
      IF jsonb_typeof(r.body #> '{plan,planned_tasks}') IS DISTINCT FROM 'array'
        OR EXISTS (SELECT 1 FROM jsonb_array_elements(r.body #> '{plan,planned_tasks}') AS t(task) WHERE jsonb_typeof(t.task -> 'task_id') IS DISTINCT FROM 'string') THEN
        RAISE EXCEPTION 'plan_revisions row (plan "%", revision %) does not hold a list of tasks with ids, so it cannot move to pages; repair the row and start again', r.plan_id, r.revision;
      END IF;
      ids := '{}';
      hashes := '{}';
      FOR task IN SELECT t.task FROM jsonb_array_elements(r.body #> '{plan,planned_tasks}') WITH ORDINALITY AS t(task, ord) ORDER BY t.ord LOOP
        canonical := "plangate_0017_canonical"(task);
        hash := 'sha256:' || encode(sha256(convert_to(canonical, 'UTF8')), 'hex');
        INSERT INTO "plan_tasks" ("plan_id", "hash", "body", "bytes") VALUES (r.plan_id, hash, task, octet_length(convert_to(canonical, 'UTF8'))) ON CONFLICT DO NOTHING;
        ids := ids || (task ->> 'task_id');
        hashes := hashes || hash;
      END LOOP;
    END IF;
    -- The task positions move to the pages; the others (a subgraph box's, a removed task's) stay in the body.
    positions := coalesce(r.body #> '{view,positions}', '{}');
    UPDATE "plan_revisions" SET
      "body" = CASE WHEN r.body #> '{view,positions}' IS NULL THEN jsonb_set(r.body, '{plan,planned_tasks}', '[]')
        ELSE jsonb_set(jsonb_set(r.body, '{plan,planned_tasks}', '[]'), '{view,positions}', positions - ids) END,
      "page_hashes" = "plangate_0017_pages"(r.plan_id, ids, hashes, positions),
      "task_count" = cardinality(ids)
    WHERE "plan_id" = r.plan_id AND "revision" = r.revision;
  END LOOP;
END $$;
--> statement-breakpoint
DROP FUNCTION "plangate_0017_pages"(text, text[], text[], jsonb);--> statement-breakpoint
DROP FUNCTION "plangate_0017_ends_page"(text);--> statement-breakpoint
DROP FUNCTION "plangate_0017_mul32"(bigint, bigint);--> statement-breakpoint
DROP FUNCTION "plangate_0017_canonical"(jsonb);--> statement-breakpoint
DROP FUNCTION "plangate_0017_utf16"(text);--> statement-breakpoint
DROP FUNCTION "plangate_0017_number"(numeric);--> statement-breakpoint
ALTER TABLE "plan_revisions" ALTER COLUMN "page_hashes" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_revisions" ALTER COLUMN "task_count" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_revisions" DROP COLUMN "task_ids";--> statement-breakpoint
ALTER TABLE "plan_revisions" DROP COLUMN "task_hashes";