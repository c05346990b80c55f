import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestUrl, sendWebResponse, toWebRequest } from '../../server/http/node-bridge';
import { answerClientErrors, createEdgeListener } from '../../server/http/node-edge';

type Handler = (req: Request) => Response | Promise<Response>;

// The route files run here outside Next.js, where after() has no request to follow:
// served as npm start and npm run dev serve them, beside a resident webhook worker,
// which the webhook tests start themselves.
process.env.WEBHOOK_RESIDENT_WORKER ??= 'true';

// The app's route files, matched the way Next.js matches their folders. Each is loaded on its
// first request, as Next.js loads a route: sign-in's library alone takes seconds of CPU to
// load, which a file that never signs in would pay for nothing.
const routes: [RegExp, () => Promise<Record<string, unknown>>][] = [
  [/^\/v1\/public\/openapi\.json$/, () => import('../../app/v1/public/openapi.json/route')],
  [/^\/storage\/[^/]+$/, () => import('../../app/storage/[key]/route')],
  [/^\/api\/auth\/.+/, () => import('../../app/api/auth/[...all]/route')],
  [/^\/api\/internal\/[^/]+$/, () => import('../../app/api/internal/[trpc]/route')],
  [/^\/api\/cron\/webhooks$/, () => import('../../app/api/cron/webhooks/route')],
  [/^\/api\/cron\/purge$/, () => import('../../app/api/cron/purge/route')],
  [/^\/\.well-known\/oauth-protected-resource$/, () => import('../../app/.well-known/oauth-protected-resource/route')],
  [/^\/\.well-known\/oauth-protected-resource\/v1\/mcp$/, () => import('../../app/.well-known/oauth-protected-resource/v1/mcp/route')],
  [
    /^\/\.well-known\/oauth-protected-resource\/v1\/public$/,
    () => import('../../app/.well-known/oauth-protected-resource/v1/public/route'),
  ],
  [/^\/\.well-known\/oauth-authorization-server$/, () => import('../../app/.well-known/oauth-authorization-server/route')],
  [
    /^\/\.well-known\/oauth-authorization-server\/api\/auth$/,
    () => import('../../app/.well-known/oauth-authorization-server/api/auth/route'),
  ],
];

export interface TestServer {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Serves the app's route handlers over real HTTP on a loopback port, so tests
 * exercise sockets, headers and streaming bodies as a client sees them. The test
 * client stands as one trusted proxy (`trustedProxies`), so a test names the client
 * address it plays in X-Forwarded-For.
 */
export async function startTestServer(options: { trustedProxies?: number } = {}): Promise<TestServer> {
  const trustedProxies = options.trustedProxies ?? 1;
  // The production server's own edge, with the app's other route files where it hands over to Next.js.
  const server = http.createServer(
    createEdgeListener({
      trustedProxies,
      async handleOther(incoming, outgoing) {
        const url = requestUrl(incoming);
        const route = routes.find(([pattern]) => pattern.test(url.pathname));
        const handler = route && ((await route[1]())[incoming.method ?? 'GET'] as Handler | undefined);
        if (!handler) {
          outgoing.writeHead(404).end();
          return;
        }
        // The edge has written the resolved client address there.
        const request = toWebRequest(incoming, url, incoming.headers['x-forwarded-for'] as string | undefined);
        await sendWebResponse(await handler(request), incoming, outgoing);
      },
    }),
  );
  answerClientErrors(server);
  // Idle connections are left to the client to close. The server's own 5 s close raced a test's
  // next request on the same connection when the process, client and server both, was held up
  // ("other side closed", ECONNRESET, at a load average of 30).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
