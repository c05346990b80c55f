import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { startStatementCounter, type StatementCounter } from '../support/pg-counter';
import { useApi } from '../support/api';

/**
 * Reads with DATABASE_REPLICA_URL set. The "replica" here is the file's own database
 * behind a statement-counting proxy, so the test sees which reads reach it; a real
 * streaming replica that lags is the deployment suite's (tests/deploy).
 */
const withRedis = inject('testDatabase').kind === 'postgres' && Boolean(process.env.REDIS_URL);

describe.runIf(withRedis)('reads with a replica', () => {
  let replica: StatementCounter;
  beforeAll(async () => {
    replica = await startStatementCounter(process.env.DATABASE_URL!);
    process.env.DATABASE_REPLICA_URL = replica.url;
    // Stickiness is the bound plus a second: short, so that the test can see it end.
    process.env.DATABASE_REPLICA_MAX_LAG_MS = '300';
  });
  const api = useApi();

  /** The statements the replica served since the last look, the freshness checks aside. */
  const servedByReplica = () => replica.take().filter((statement) => !statement.text.includes('pg_last_wal_replay_lsn'));

  async function readsReachReplica(client = api.client) {
    await vi.waitFor(
      async () => {
        replica.take();
        expect((await client.get('/web/tasks')).status).toBe(200);
        expect(servedByReplica().length).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 50 },
    );
  }

  it('a key that has not written reads from the replica', async () => {
    await readsReachReplica();
  });

  it('a key reads its own write at once: its reads go to the primary', async () => {
    await readsReachReplica();
    const created = await api.client.post('/web/tasks', { title: 'Read me back' });
    expect(created.status).toBe(201);
    replica.take();
    const read = await api.client.get(`/web/tasks/${created.body.id}`);
    expect(read.status).toBe(200);
    expect((await api.client.get('/web/tasks?search=Read%20me%20back')).body.tasks).toHaveLength(1);
    expect(servedByReplica()).toEqual([]);
  });

  it("another key's write does not move this key's reads", async () => {
    const other = api.clientWith(await api.fixture.key({ name: 'Other' }));
    await readsReachReplica(other);
    expect((await api.client.post('/web/tasks', { title: 'Written by the first key' })).status).toBe(201);
    replica.take();
    expect((await other.get('/web/tasks')).status).toBe(200);
    expect(servedByReplica().length).toBeGreaterThan(0);
  });

  it('after the stickiness has passed, the writer reads from the replica again', async () => {
    expect((await api.client.post('/web/tasks', { title: 'Then quiet' })).status).toBe(201);
    await readsReachReplica();
  });

  it('a replica that cannot be reached is not read: reads are answered from the primary', async () => {
    await readsReachReplica();
    await replica.close();
    for (let i = 0; i < 5; i++) expect((await api.client.get('/web/tasks')).status).toBe(200);
  });
});
