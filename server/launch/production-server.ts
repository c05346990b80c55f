import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import next from 'next';
import { disconnectDb } from '../db/client';
import { env } from '../env';
import { INTERNAL_ERROR } from '../http/errors';
import { sendWebResponse, toWebRequest } from '../http/node-bridge';
import { handlePublicRequest, isPublicApiPath } from '../http/public-api';
import { logEvent } from '../log';

/**
 * The production server `npm start` runs (after `next build`): Next.js serves the
 * pages and every route but one, and the public API goes straight from node:http
 * into the handler its App Router route uses — `next dev` and Vercel serve it
 * through that route. On a get, Next's route machinery (web streams, tracing,
 * its request context) cost more CPU than the whole call; see tests/bench.
 * Run as a child by server/launch/server-process.ts with --port and --hostname.
 */

const { values } = parseArgs({ options: { port: { type: 'string' }, hostname: { type: 'string' } } });
const port = Number(values.port ?? 3000);
const hostname = values.hostname;
const root = path.resolve(import.meta.dirname, '../..');
const SHUTDOWN_GRACE_MS = 10_000;
const trustedProxies = env().trustedProxyCount;

const app = next({ dev: false, dir: root, hostname, port });
const handleNext = app.getRequestHandler();
await app.prepare();

const server = http.createServer((incoming, outgoing) => {
  if (!isPublicApiPath(incoming.url ?? '/')) {
    void handleNext(incoming, outgoing);
    return;
  }
  answerPublicApi(incoming, outgoing).catch((error: unknown) => {
    logEvent('error', 'public_api.bridge_failed', { error });
    if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'application/json' });
    outgoing.end(outgoing.headersSent ? undefined : JSON.stringify(INTERNAL_ERROR));
  });
});

async function answerPublicApi(incoming: http.IncomingMessage, outgoing: http.ServerResponse): Promise<void> {
  let request: Request;
  try {
    request = toWebRequest(incoming, trustedProxies);
  } catch {
    // Node's parser let through a header the Fetch API refuses.
    outgoing.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
    outgoing.end(JSON.stringify({ statusCode: 400, message: 'Malformed request headers' }));
    return;
  }
  await sendWebResponse(await handlePublicRequest(request), incoming, outgoing);
}

server.listen(port, hostname, () => {
  process.stdout.write(`Listening on http://${hostname ?? 'localhost'}:${port}\n`);
});

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  const forced = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
  forced.unref();
  server.close(() => {
    void Promise.allSettled([app.close(), disconnectDb()]).then(() => process.exit(0));
  });
  server.closeIdleConnections();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
