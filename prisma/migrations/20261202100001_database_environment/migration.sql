-- Which environment this database serves (server/db/environment.ts): production, preview, …
-- One row at most, written by the first migration run (VERCEL_ENV, or production), and
-- changed only by `npm run admin -- database mark`. A preview refuses to migrate a
-- database recorded as production's.
CREATE TABLE "database_environment" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "environment" TEXT NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "database_environment_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "database_environment_one_row" CHECK ("id" = 1)
);
