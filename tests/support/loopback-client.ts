import { randomBytes } from 'node:crypto';
import http from 'node:http';

/** A loopback address of its own: all of 127.0.0.0/8 reaches this machine, so a socket from it is a new client. */
export const loopbackAddress = () => `127.${[...randomBytes(3)].map((byte) => (byte % 250) + 1).join('.')}`;

/** A GET of /web/statuses with a fresh bad key, from `localAddress` on a connection of its own, naming `forwardedFor` as the client if given. */
export function badKeyRequest(baseUrl: string, localAddress: string, forwardedFor?: string): Promise<number> {
  const headers: Record<string, string> = { authorization: `Bearer tk_${randomBytes(20).toString('hex')}` };
  if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}/v1/public/web/statuses`, { localAddress, headers, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.on('error', reject);
  });
}

/** The statuses of `count` requests sent one after another. */
export async function statusesOf(count: number, send: (i: number) => Promise<number>): Promise<number[]> {
  const seen = [];
  for (let i = 0; i < count; i++) seen.push(await send(i));
  return seen;
}

export interface LoopbackResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request from `localAddress`, on a connection of its own: to the server, a client of its own. */
export function requestFrom(
  localAddress: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<LoopbackResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: options.method ?? 'GET', localAddress, headers: options.headers, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
        // The connection closed before the answer's end: `aborted`.
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
