-- The request log and usage of every key and app (server/request-log), in a schema of
-- their own: Prisma's model covers the public schema only, and these tables are written
-- and read by hand-written SQL. Each table is partitioned by UTC day, so the purge drops
-- whole days at once instead of deleting rows one by one; the days are created ahead by
-- request_log.create_days (the purge, and each process's flush for the day it writes).
CREATE SCHEMA "request_log";

-- One row per request of a key or an app (each MCP tool call counts as one).
CREATE TABLE "request_log"."request" (
  "id"              UUID         NOT NULL,
  "occurred_at"     TIMESTAMPTZ(3) NOT NULL,
  "workspace_id"    UUID         NOT NULL,
  "principal_id"    UUID         NOT NULL,
  "principal_kind"  TEXT         NOT NULL,
  "method"          TEXT         NOT NULL,
  "route"           TEXT         NOT NULL,
  "path"            TEXT         NOT NULL,
  "status"          SMALLINT     NOT NULL,
  "duration_ms"     INTEGER      NOT NULL,
  "request_id"      UUID         NOT NULL,
  "idempotency_key" VARCHAR(255),
  "replayed"        BOOLEAN      NOT NULL,
  "ip"              TEXT         NOT NULL,
  "user_agent"      TEXT,
  "message"         TEXT
) PARTITION BY RANGE ("occurred_at");

-- Newest first within a workspace, and the same through each filter of GET /v1/public/requests.
CREATE INDEX "request_workspace_idx" ON "request_log"."request" ("workspace_id", "occurred_at" DESC, "id" DESC);
CREATE INDEX "request_principal_idx" ON "request_log"."request" ("workspace_id", "principal_id", "occurred_at" DESC, "id" DESC);
CREATE INDEX "request_status_idx" ON "request_log"."request" ("workspace_id", "status", "occurred_at" DESC, "id" DESC);
CREATE INDEX "request_method_idx" ON "request_log"."request" ("workspace_id", "method", "occurred_at" DESC, "id" DESC);
CREATE INDEX "request_route_idx" ON "request_log"."request" ("workspace_id", "route", "occurred_at" DESC, "id" DESC);
CREATE INDEX "request_request_id_idx" ON "request_log"."request" ("workspace_id", "request_id");
CREATE INDEX "request_idempotency_key_idx" ON "request_log"."request" ("workspace_id", "idempotency_key") WHERE "idempotency_key" IS NOT NULL;

-- Counts per minute and per hour (UTC) of a key or app, operation and status class, with a
-- histogram of durations in fixed log-scale buckets (server/request-log/histogram.ts): rows of
-- several processes and instances add up, counts and histograms alike.
CREATE TABLE "request_log"."usage_minute" (
  "bucket"         TIMESTAMPTZ(3) NOT NULL,
  "workspace_id"   UUID        NOT NULL,
  "principal_id"   UUID        NOT NULL,
  "principal_kind" TEXT        NOT NULL,
  "method"         TEXT        NOT NULL,
  "route"          TEXT        NOT NULL,
  "status_class"   TEXT        NOT NULL,
  "requests"       INTEGER     NOT NULL,
  "histogram"      INTEGER[]   NOT NULL,
  PRIMARY KEY ("workspace_id", "principal_id", "bucket", "method", "route", "status_class")
) PARTITION BY RANGE ("bucket");
CREATE INDEX "usage_minute_workspace_idx" ON "request_log"."usage_minute" ("workspace_id", "bucket");

CREATE TABLE "request_log"."usage_hour" (
  "bucket"         TIMESTAMPTZ(3) NOT NULL,
  "workspace_id"   UUID        NOT NULL,
  "principal_id"   UUID        NOT NULL,
  "principal_kind" TEXT        NOT NULL,
  "method"         TEXT        NOT NULL,
  "route"          TEXT        NOT NULL,
  "status_class"   TEXT        NOT NULL,
  "requests"       INTEGER     NOT NULL,
  "histogram"      INTEGER[]   NOT NULL,
  PRIMARY KEY ("workspace_id", "principal_id", "bucket", "method", "route", "status_class")
) PARTITION BY RANGE ("bucket");
CREATE INDEX "usage_hour_workspace_idx" ON "request_log"."usage_hour" ("workspace_id", "bucket");

-- Two histograms added bucket by bucket; null counts as empty.
CREATE FUNCTION "request_log"."add_histograms"(a INTEGER[], b INTEGER[]) RETURNS INTEGER[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS t(x, y, i)
$$;

CREATE AGGREGATE "request_log"."sum_histograms"(INTEGER[]) (SFUNC = "request_log"."add_histograms", STYPE = INTEGER[]);

-- The partitions of `days` UTC days from `first_day`, for each of the three tables; answers
-- `days` (a value rather than void, which Prisma's raw queries cannot read). Several
-- processes may create the same day at once: the one that loses the race moves on.
CREATE FUNCTION "request_log"."create_days"(first_day DATE, days INTEGER) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
  day DATE;
  parent TEXT;
BEGIN
  FOR i IN 0 .. days - 1 LOOP
    day := first_day + i;
    FOREACH parent IN ARRAY ARRAY['request', 'usage_minute', 'usage_hour'] LOOP
      BEGIN
        EXECUTE format(
          'CREATE TABLE IF NOT EXISTS request_log.%I PARTITION OF request_log.%I FOR VALUES FROM (%L) TO (%L)',
          parent || '_p' || to_char(day, 'YYYYMMDD'), parent,
          to_char(day, 'YYYY-MM-DD') || ' 00:00:00+00', to_char(day + 1, 'YYYY-MM-DD') || ' 00:00:00+00');
      EXCEPTION WHEN duplicate_table OR unique_violation THEN
        NULL;
      END;
    END LOOP;
  END LOOP;
  RETURN days;
END
$$;

-- Drops the partitions of `parent` whose whole UTC day lies before `keep_from`; the number dropped.
CREATE FUNCTION "request_log"."drop_days"(parent TEXT, keep_from TIMESTAMPTZ) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
  part RECORD;
  dropped INTEGER := 0;
BEGIN
  FOR part IN
    SELECT c.relname AS name FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent
      JOIN pg_namespace n ON n.oid = p.relnamespace
    WHERE n.nspname = 'request_log' AND p.relname = parent AND c.relname ~ ('^' || parent || '_p[0-9]{8}$')
  LOOP
    IF (to_date(right(part.name, 8), 'YYYYMMDD') + 1)::timestamp AT TIME ZONE 'UTC' <= keep_from THEN
      EXECUTE format('DROP TABLE request_log.%I', part.name);
      dropped := dropped + 1;
    END IF;
  END LOOP;
  RETURN dropped;
END
$$;
