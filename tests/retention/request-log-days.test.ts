import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { purgeStorage } from '../../server/retention/purge';

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

async function partitions(parent: string): Promise<string[]> {
  const rows = await db().$queryRaw<{ name: string }[]>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
    JOIN pg_namespace n ON n.oid = p.relnamespace WHERE n.nspname = 'request_log' AND p.relname = ${parent} ORDER BY 1`;
  return rows.map((row) => row.name);
}

async function logged(at: Date): Promise<string> {
  const id = randomUUID();
  await db().$executeRaw`
    INSERT INTO request_log.request (id, occurred_at, workspace_id, principal_id, principal_kind, method, route, path, status,
      duration_ms, request_id, replayed, ip)
    VALUES (${id}::uuid, ${at}, ${randomUUID()}::uuid, ${randomUUID()}::uuid, 'key', 'GET', '/v1/public/{projectSlug}/tasks',
      '/v1/public/web/tasks', 200, 3, ${randomUUID()}::uuid, false, '127.0.0.1')`;
  return id;
}

describe('the purge of the request log', () => {
  it('drops whole days past 30 and keeps the newer ones, and creates the days ahead', async () => {
    const now = Date.now();
    // 40 days back to today, as a server running for weeks would have left them.
    await db().$queryRaw`SELECT request_log.create_days(${day(now - 40 * DAY_MS)}::date, 41)`;
    const old = await logged(new Date(now - 35 * DAY_MS));
    const edge = await logged(new Date(now - 29 * DAY_MS));
    const today = await logged(new Date(now));

    const report = await purgeStorage(db(), { now });
    const kept = await partitions('request');
    expect(kept[0]).toBe(`request_p${day(now - 30 * DAY_MS).replaceAll('-', '')}`);
    expect(kept.at(-1)).toBe(`request_p${day(now + 2 * DAY_MS).replaceAll('-', '')}`);
    expect(kept).toHaveLength(33);
    // Per-minute counts are kept a week, per-hour ones 92 days: those 40 days stay.
    expect((await partitions('usage_minute'))[0]).toBe(`usage_minute_p${day(now - 7 * DAY_MS).replaceAll('-', '')}`);
    expect(await partitions('usage_hour')).toHaveLength(43);
    expect(report.requestLogDays).toBe(10 + 33);

    const left = await db().$queryRaw<{ id: string }[]>`SELECT id::text FROM request_log.request ORDER BY occurred_at`;
    expect(left.map((row) => row.id)).toEqual([edge, today]);
    expect(left.map((row) => row.id)).not.toContain(old);

    // A second run finds nothing more to drop.
    expect((await purgeStorage(db(), { now })).requestLogDays).toBe(0);
  });
});
