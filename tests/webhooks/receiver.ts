import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { ApiContext } from '../support/api';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** When the body had arrived (Date.now()). */
  at: number;
}

/** A webhook receiver on a loopback port: answers each request to a path with the next status given for it, then 204. */
export async function startReceiver() {
  const received: Received[] = [];
  const statuses = new Map<string, number[]>();
  const held = new Map<string, (() => void)[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      res.statusCode = statuses.get(req.url ?? '')?.shift() ?? 204;
      const waiting = held.get(req.url ?? '');
      if (waiting) waiting.push(() => res.end());
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** A URL of its own for each endpoint, so each test reads only its requests. */
    url: (path: string) => `http://127.0.0.1:${port}/${path}`,
    port,
    received: (path: string) => received.filter((request) => request.path === `/${path}`),
    /** The statuses the next requests to the path get, in order. */
    answer: (path: string, ...next: number[]) => statuses.set(`/${path}`, next),
    /** Answers to the path wait until the function this returns is called; later ones come at once. */
    hold: (path: string) => {
      const waiting: (() => void)[] = [];
      held.set(`/${path}`, waiting);
      return () => {
        held.delete(`/${path}`);
        for (const answer of waiting) answer();
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A task created through the API in project web: the change the webhook tests report. */
export async function createTask(api: ApiContext, title = 'Ship webhooks') {
  const response = await api.client.post('/web/tasks', { title });
  expect(response.status).toBe(201);
  return response.body;
}
