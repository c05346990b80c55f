import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';

describe('migrations', () => {
  it('create every table of the model', async () => {
    const rows = await db().$queryRaw<{ table_name: string }[]>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`;
    expect(rows.map((r) => r.table_name)).toEqual([
      '_prisma_migrations',
      'account',
      'api_key',
      'attachment',
      'audit_event',
      'comment',
      'database_environment',
      'idempotency_record',
      'label',
      'membership',
      'oauth_access_token',
      'oauth_client',
      'oauth_client_assertion',
      'oauth_client_resource',
      'oauth_consent',
      'oauth_grant',
      'oauth_refresh_token',
      'oauth_resource',
      'pending_upload',
      'project',
      'project_label',
      'rate_limit',
      'session',
      'setup_attempt',
      'setup_code',
      'sign_in_failure',
      'status',
      'task',
      'task_assignee',
      'task_count',
      'task_label',
      'task_tombstone',
      'user',
      'verification',
      'webhook_delivery',
      'webhook_endpoint',
      'workspace',
    ]);
  });

  it("install graphile-worker's schema, the webhooks' job queue", async () => {
    const rows = await db().$queryRaw<
      { name: string }[]
    >`SELECT proname AS name FROM pg_proc WHERE pronamespace = 'graphile_worker'::regnamespace AND proname = 'add_job'`;
    expect(rows).toEqual([{ name: 'add_job' }]);
  });

  it("are recorded as applied in Prisma's bookkeeping", async () => {
    const rows = await db().$queryRaw<{ migration_name: string; finished_at: Date | null }[]>`
      SELECT migration_name, finished_at FROM _prisma_migrations`;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });

  it('create an index for every lookup and filter of the API', async () => {
    const rows = await db().$queryRaw<{ indexdef: string }[]>`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'`;
    const defs = rows.map((r) => r.indexdef.replace(/^CREATE (UNIQUE )?INDEX \S+ ON public\./, '$1'));
    expect(defs).toEqual(
      expect.arrayContaining([
        'UNIQUE task USING btree (project_id, number)',
        'task USING btree (project_id, created_at DESC, id DESC) WHERE (parent_id IS NULL)',
        'task USING btree (project_id, updated_at, id) WHERE (parent_id IS NULL)',
        'task_tombstone USING btree (project_id, deleted_at, task_id)',
        'task USING btree (project_id, status_id, created_at DESC, id DESC)',
        'task USING btree (project_id, category, created_at DESC, id DESC)',
        'task USING btree (project_id, priority, created_at DESC, id DESC)',
        'task USING btree (project_id, priority, id) WHERE (parent_id IS NULL)',
        "task USING btree (project_id, COALESCE(due_date, 'infinity'::timestamp with time zone), id) WHERE (parent_id IS NULL)",
        "task USING btree (project_id, COALESCE(due_date, '-infinity'::timestamp with time zone), id) WHERE (parent_id IS NULL)",
        'task USING btree (parent_id)',
        'task USING gin (project_id, title gin_trgm_ops)',
        'task_assignee USING btree (user_id)',
        'task_label USING btree (label_id)',
        'UNIQUE api_key USING btree (key_hash)',
        'UNIQUE project USING btree (workspace_id, slug)',
        'comment USING btree (task_id, created_at)',
        'attachment USING btree (task_id)',
        'status USING btree (project_id, display_order)',
        'UNIQUE rate_limit USING btree (key)',
        'sign_in_failure USING btree (account_key, created_at)',
        'sign_in_failure USING btree (created_at)',
        'UNIQUE idempotency_record USING btree (api_key_id, key)',
        'idempotency_record USING btree (expires_at)',
        'audit_event USING btree (workspace_id, occurred_at DESC, id DESC)',
        'audit_event USING btree (workspace_id, action, occurred_at DESC, id DESC)',
        'audit_event USING btree (workspace_id, action_group, occurred_at DESC, id DESC)',
        'audit_event USING btree (workspace_id, actor_type, occurred_at DESC, id DESC)',
        'audit_event USING btree (workspace_id, actor_id, occurred_at DESC, id DESC)',
        'audit_event USING btree (workspace_id, target_type, occurred_at DESC, id DESC)',
        'audit_event USING btree (workspace_id, target_id, occurred_at DESC, id DESC)',
        'audit_event USING btree (occurred_at, id)',
      ]),
    );
  });

  it("lead every index of the tasks with the project but the key's and the parent's, so a list reads its own project's entries only", async () => {
    const rows = await db().$queryRaw<{ indexname: string; indexdef: string }[]>`
      SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'task'`;
    const notByProject = rows.filter((row) => !/ USING \w+ \(project_id[ ,]/.test(row.indexdef)).map((row) => row.indexdef);
    expect(notByProject.sort()).toEqual([
      'CREATE INDEX task_parent_id_idx ON public.task USING btree (parent_id)',
      'CREATE UNIQUE INDEX task_pkey ON public.task USING btree (id)',
    ]);
  });
});
