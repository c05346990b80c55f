import './source-maps-off';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import next from 'next';
import { disconnectDb } from '../db/client';
import { env } from '../env';
import { answerClientErrors, createEdgeListener } from '../http/node-edge';
import { stopRequestLog } from '../request-log/flush';

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

// Every request passes the edge first (server/http/node-edge.ts): the public API
// from there, the rest through Next.js with the client's address already resolved.
const server = http.createServer(createEdgeListener({ trustedProxies, handleOther: handleNext }));
answerClientErrors(server);

server.listen(port, hostname, () => {
  process.stdout.write(`Listening on http://${hostname ?? 'localhost'}:${port}\n`);
});

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  const forced = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
  forced.unref();
  // The requests answered are in the request log before the pool closes.
  server.close(() => {
    void Promise.allSettled([app.close(), stopRequestLog().then(disconnectDb)]).then(() => process.exit(0));
  });
  server.closeIdleConnections();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
