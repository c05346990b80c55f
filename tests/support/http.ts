import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestUrl, sendWebResponse, toWebRequest } from '../../server/http/node-bridge';
import { answerClientErrors, createEdgeListener } from '../../server/http/node-edge';
import * as openApiRoute from '../../app/v1/public/openapi.json/route';
import * as storageRoute from '../../app/storage/[key]/route';
import * as authRoute from '../../app/api/auth/[...all]/route';
import * as internalRoute from '../../app/api/internal/[trpc]/route';
import * as webhooksCronRoute from '../../app/api/cron/webhooks/route';
import * as purgeCronRoute from '../../app/api/cron/purge/route';
import * as resourceMetadataRoute from '../../app/.well-known/oauth-protected-resource/route';
import * as mcpResourceMetadataRoute from '../../app/.well-known/oauth-protected-resource/v1/mcp/route';
import * as restResourceMetadataRoute from '../../app/.well-known/oauth-protected-resource/v1/public/route';
import * as serverMetadataRoute from '../../app/.well-known/oauth-authorization-server/route';
import * as issuerMetadataRoute from '../../app/.well-known/oauth-authorization-server/api/auth/route';

type Handler = (req: Request) => Response | Promise<Response>;

// The route files run here outside Next.js, where after() has no request to follow:
// served as npm start and npm run dev serve them, beside a resident webhook worker,
// which the webhook tests start themselves.
process.env.WEBHOOK_RESIDENT_WORKER ??= 'true';

// The app's route files, matched the way Next.js matches their folders.
const routes: [RegExp, Record<string, unknown>][] = [
  [/^\/v1\/public\/openapi\.json$/, openApiRoute],
  [/^\/storage\/[^/]+$/, storageRoute],
  [/^\/api\/auth\/.+/, authRoute],
  [/^\/api\/internal\/[^/]+$/, internalRoute],
  [/^\/api\/cron\/webhooks$/, webhooksCronRoute],
  [/^\/api\/cron\/purge$/, purgeCronRoute],
  [/^\/\.well-known\/oauth-protected-resource$/, resourceMetadataRoute],
  [/^\/\.well-known\/oauth-protected-resource\/v1\/mcp$/, mcpResourceMetadataRoute],
  [/^\/\.well-known\/oauth-protected-resource\/v1\/public$/, restResourceMetadataRoute],
  [/^\/\.well-known\/oauth-authorization-server$/, serverMetadataRoute],
  [/^\/\.well-known\/oauth-authorization-server\/api\/auth$/, issuerMetadataRoute],
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
        const handler = route?.[1][incoming.method ?? 'GET'] as Handler | undefined;
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
