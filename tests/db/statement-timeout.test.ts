import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { asUnavailable } from '../../server/errors';
import { createPool } from '../../server/db/pool';

/**
 * A pooler that has taken the connection but holds its statements in its own queue:
 * a TCP proxy that stops passing the client's bytes on when told to.
 */
async function holdingProxy(target: URL) {
  let holding = false;
  const held: net.Socket[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    held.push(client, upstream);
    client.on('data', (chunk) => {
      if (!holding) upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    hold: () => (holding = true),
    close: () => {
      for (const socket of held) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.runIf(inject('testDatabase').kind === 'postgres')('a statement held in a pooler’s queue', () => {
  let proxy: Awaited<ReturnType<typeof holdingProxy>>;
  beforeAll(async () => {
    proxy = await holdingProxy(new URL(process.env.DATABASE_URL!));
  });
  afterAll(() => proxy.close());

  it('fails within the statement bound as the database being unavailable, and its connection is closed, not reused', async () => {
    const pool = createPool({ url: proxy.url, max: 1, applicationName: 'taskapi-test', onError: () => {}, statementTimeoutMs: 300 });
    try {
      const client = await pool.connect();
      await client.query('SELECT 1');
      proxy.hold();
      const failure = await client.query('SELECT 2').then(
        () => null,
        (error: unknown) => error,
      );
      client.release();
      expect(asUnavailable(failure)?.kind).toBe('unavailable');
      await expect.poll(() => pool.totalCount).toBe(0);
    } finally {
      await pool.end();
    }
  });
});
