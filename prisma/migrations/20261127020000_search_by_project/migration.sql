-- A search reads its own project's entries only: the title's trigram index leads with the
-- project (btree_gin holds the uuid in a GIN index). With the title alone, a search in a
-- project of 1,000 tasks read the matching entries of every project (16,421 of them for
-- "onboarding" beside a project of 300,000; 4.5 ms, now 0.4 ms).
CREATE EXTENSION IF NOT EXISTS "btree_gin";
DROP INDEX "task_title_trgm_idx";
CREATE INDEX "task_project_id_title_trgm_idx" ON "task" USING GIN ("project_id" uuid_ops, "title" gin_trgm_ops);
