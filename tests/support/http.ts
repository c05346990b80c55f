import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import * as openApiRoute from '../../app/v1/public/openapi.json/route';
import * as publicRoute from '../../app/v1/public/[...path]/route';
import * as storageRoute from '../../app/storage/[key]/route';
import * as authRoute from '../../app/api/auth/[...all]/route';
import * as internalRoute from '../../app/api/internal/[trpc]/route';

type Handler = (req: Request) => Response | Promise<Response>;

// The app's route files, matched the way Next.js matches their folders.
const routes: [RegExp, Record<string, unknown>][] = [
  [/^\/v1\/public\/openapi\.json$/, openApiRoute],
  [/^\/v1\/public\/.+/, publicRoute],
  [/^\/storage\/[^/]+$/, storageRoute],
  [/^\/api\/auth\/.+/, authRoute],
  [/^\/api\/internal\/[^/]+$/, internalRoute],
];

export interface TestServer {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Serves the app's route handlers over real HTTP on a loopback port, so tests
 * exercise sockets, headers and streaming bodies as a client sees them.
 */
export async function startTestServer(): Promise<TestServer> {
  const server = http.createServer(async (incoming, outgoing) => {
    try {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const route = routes.find(([pattern]) => pattern.test(url.pathname));
      const handler = route?.[1][incoming.method ?? 'GET'] as Handler | undefined;
      if (!handler) {
        outgoing.writeHead(404).end();
        return;
      }
      const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      }
      if (!headers.has('x-forwarded-for')) headers.set('x-forwarded-for', incoming.socket.remoteAddress ?? '127.0.0.1');
      const request = new Request(`http://${incoming.headers.host}${incoming.url}`, {
        method: incoming.method,
        headers,
        body: hasBody ? (Readable.toWeb(incoming) as ReadableStream) : undefined,
        duplex: 'half',
      } as RequestInit);
      const response = await handler(request);
      // Several cookies cannot share one header line: pass them as a list.
      const responseHeaders: Record<string, string | string[]> = Object.fromEntries(response.headers);
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) responseHeaders['set-cookie'] = cookies;
      outgoing.writeHead(response.status, responseHeaders);
      if (response.body) {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) outgoing.write(chunk);
      }
      outgoing.end();
    } catch (error) {
      console.error(error);
      outgoing.writeHead(599).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
