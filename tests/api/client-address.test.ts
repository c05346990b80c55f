import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/http';
import { awayFromWindowEdge } from '../support/limit-window';
import { badKeyRequest, loopbackAddress, statusesOf } from '../support/loopback-client';

// The bad-key limit is per client address; kept in this process's memory.
delete process.env.REDIS_URL;
delete process.env.UPSTASH_REDIS_REST_URL;
delete process.env.UPSTASH_REDIS_REST_TOKEN;

const BAD_KEY_LIMIT = 30;

let direct: TestServer;
let behindTwoProxies: TestServer;

beforeAll(async () => {
  direct = await startTestServer({ trustedProxies: 0 });
  behindTwoProxies = await startTestServer({ trustedProxies: 2 });
});

afterAll(async () => {
  await direct.close();
  await behindTwoProxies.close();
});

describe('client address for the bad-key limit', () => {
  it("with no proxy trusted, is the socket's: an X-Forwarded-For written by the client is ignored", async () => {
    await awayFromWindowEdge();
    const socket = loopbackAddress();

    const seen = await statusesOf(BAD_KEY_LIMIT + 1, (i) => badKeyRequest(direct.baseUrl, socket, `203.0.113.${i + 1}`));

    expect(seen).toEqual([...Array(BAD_KEY_LIMIT).fill(401), 429]);
  });

  it('with no proxy trusted, another socket address is another client', async () => {
    await awayFromWindowEdge();
    const socket = loopbackAddress();
    await statusesOf(BAD_KEY_LIMIT + 1, () => badKeyRequest(direct.baseUrl, socket));

    expect(await badKeyRequest(direct.baseUrl, loopbackAddress())).toBe(401);
  });

  it('behind trusted proxies, is the entry the outermost one added: entries the client wrote before it are ignored', async () => {
    await awayFromWindowEdge();
    const socket = loopbackAddress();
    const client = '203.0.113.200';

    const seen = await statusesOf(BAD_KEY_LIMIT + 1, (i) =>
      badKeyRequest(behindTwoProxies.baseUrl, socket, `10.${i}.0.1, ${client}, 192.0.2.1`),
    );

    expect(seen).toEqual([...Array(BAD_KEY_LIMIT).fill(401), 429]);
  });

  it('behind trusted proxies, clients the outermost proxy reports apart are limited apart', async () => {
    await awayFromWindowEdge();
    const socket = loopbackAddress();
    const blocked = '203.0.113.201';
    await statusesOf(BAD_KEY_LIMIT + 1, () => badKeyRequest(behindTwoProxies.baseUrl, socket, `${blocked}, 192.0.2.1`));

    expect(await badKeyRequest(behindTwoProxies.baseUrl, socket, `${blocked}, 192.0.2.1`)).toBe(429);
    expect(await badKeyRequest(behindTwoProxies.baseUrl, socket, `198.51.100.7, 192.0.2.1`)).toBe(401);
  });

  it('behind trusted proxies, a request that passed fewer of them falls back to the leftmost address it has', async () => {
    await awayFromWindowEdge();
    const socket = loopbackAddress();

    const seen = await statusesOf(BAD_KEY_LIMIT + 1, () => badKeyRequest(behindTwoProxies.baseUrl, socket));

    expect(seen).toEqual([...Array(BAD_KEY_LIMIT).fill(401), 429]);
  });
});
