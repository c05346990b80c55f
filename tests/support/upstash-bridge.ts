import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

/**
 * A small server speaking Upstash's REST protocol in front of a plain Redis, so
 * that tests run the real @upstash/redis and @upstash/ratelimit code against the
 * machine's Redis:
 *
 * - `POST /` with a JSON command array, answered `{result}` (200) or `{error}` (400);
 * - `POST /pipeline` and `POST /multi-exec` with an array of commands, answered
 *   with an array of `{result}` / `{error}`;
 * - `Authorization: Bearer <token>`, else 401 `{error}`;
 * - `Upstash-Encoding: base64`: every string in a result is base64 (the client's default).
 *
 * Upstash accepts script flags that Redis 7.0 rejects (`#!lua flags=allow-key-locking`,
 * on every @upstash/ratelimit script): the bridge drops that flag, and maps the
 * hash of the script as sent to the hash of the script Redis holds.
 */
export interface UpstashBridge {
  url: string;
  token: string;
  /** Commands forwarded to Redis so far. */
  commands: number;
  close(): Promise<void>;
}

type Reply = Buffer | string | number | null | Reply[];
type Command = (string | number | boolean | null)[];

const UNSUPPORTED_FLAGS = new Set(['allow-key-locking']);

export async function startUpstashBridge(redisUrl: string, token = randomBytes(16).toString('hex')): Promise<UpstashBridge> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const hashes = new Map<string, string>();
  const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

  /** The command as Redis 7.0 takes it. */
  function rewrite(command: Command): { name: string; args: string[]; answer?: string } {
    const [rawName, ...rest] = command;
    const name = String(rawName).toLowerCase();
    const args = rest.map((arg) => (arg === null ? '' : String(arg)));
    const isLoad = name === 'script' && args[0]?.toLowerCase() === 'load' && args[1] !== undefined;
    if (name === 'eval' || isLoad) {
      const index = isLoad ? 1 : 0;
      const script = args[index]!;
      const runnable = withoutUnsupportedFlags(script);
      hashes.set(sha1(script), sha1(runnable));
      args[index] = runnable;
      // SCRIPT LOAD answers the hash the client will call EVALSHA with.
      return { name, args, answer: isLoad ? sha1(script) : undefined };
    }
    if (name === 'evalsha' && args[0]) args[0] = hashes.get(args[0]) ?? args[0];
    return { name, args };
  }

  async function run(command: Command): Promise<Reply> {
    const { name, args, answer } = rewrite(command);
    bridge.commands += 1;
    const reply = (await redis.callBuffer(name, ...args)) as Reply;
    return answer ?? reply;
  }

  async function runAll(commands: Command[], transaction: boolean): Promise<({ result: Reply } | { error: string })[]> {
    const batch = transaction ? redis.multi() : redis.pipeline();
    for (const command of commands) {
      const { name, args } = rewrite(command);
      bridge.commands += 1;
      batch.callBuffer(name, ...args);
    }
    const results = (await batch.exec()) ?? [];
    return results.map(([error, result]) => (error ? { error: error.message } : { result: result as Reply }));
  }

  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    try {
      if (req.method !== 'POST') return send(405, { error: 'ERR only POST is supported' });
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'Unauthorized' });
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { error: 'ERR failed to parse command' });
      }
      const base64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
      const encode = (reply: Reply): unknown => {
        if (Buffer.isBuffer(reply)) return reply.toString(base64 ? 'base64' : 'utf8');
        if (typeof reply === 'string') return base64 ? Buffer.from(reply).toString('base64') : reply;
        if (Array.isArray(reply)) return reply.map(encode);
        return reply;
      };
      const path = new URL(req.url ?? '/', 'http://bridge').pathname;

      if (path === '/') {
        if (!isCommand(body)) return send(400, { error: 'ERR command must be a non-empty array' });
        try {
          return send(200, { result: encode(await run(body)) });
        } catch (error) {
          return send(400, { error: (error as Error).message });
        }
      }
      if (path === '/pipeline' || path === '/multi-exec') {
        if (!Array.isArray(body) || body.length === 0 || !body.every(isCommand)) {
          return send(400, { error: 'ERR body must be a non-empty array of commands' });
        }
        try {
          const results = await runAll(body, path === '/multi-exec');
          return send(
            200,
            results.map((entry) => ('error' in entry ? entry : { result: encode(entry.result) })),
          );
        } catch (error) {
          return send(400, { error: (error as Error).message });
        }
      }
      return send(404, { error: `ERR unknown path ${path}` });
    } catch (error) {
      send(500, { error: (error as Error).message });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const bridge: UpstashBridge = {
    url: `http://127.0.0.1:${port}`,
    token,
    commands: 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.quit();
    },
  };
  return bridge;
}

function isCommand(value: unknown): value is Command {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    typeof value[0] === 'string' &&
    value.every((arg) => arg === null || ['string', 'number', 'boolean'].includes(typeof arg))
  );
}

function withoutUnsupportedFlags(script: string): string {
  return script.replace(/^#!lua flags=([^\n]*)/, (_line, flags: string) => {
    const kept = flags
      .split(',')
      .map((flag) => flag.trim())
      .filter((flag) => flag && !UNSUPPORTED_FLAGS.has(flag));
    return kept.length ? `#!lua flags=${kept.join(',')}` : '#!lua';
  });
}
