import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/client';
import { createWorkspaceFixture } from '../support/fixtures';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from '../e2e/app-server';

/**
 * Security headers of what Next.js serves (next.config.mjs): only visible on the
 * production server, so this starts it as `npm start` does.
 */
let app: AppServer;
let key: string;

beforeAll(async () => {
  await ensureBuild();
  key = await (await createWorkspaceFixture()).key();
  app = await startAppServer(process.env.DATABASE_URL!);
});

afterAll(async () => {
  await app?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.baseUrl}${path}`, { headers, redirect: 'manual' });

const PATHS = [
  '/',
  '/docs',
  '/sign-in',
  '/setup',
  '/settings/api-keys',
  '/settings/apps',
  '/settings/requests',
  '/settings/usage',
  '/settings/api-keys/00000000-0000-4000-8000-000000000000',
  '/settings/apps/00000000-0000-4000-8000-000000000000',
  '/oauth/consent',
  '/api/auth/get-session',
  '/api/internal/keys.list',
];

describe('pages and non-API routes', () => {
  it.each(PATHS)('%s may not be framed by any site', async (path) => {
    const response = await get(path);
    expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each(PATHS)('%s is not content-sniffed and sends its referrer to itself only', async (path) => {
    const response = await get(path);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
  });

  it('carries Strict-Transport-Security when the client came in over https', async () => {
    const response = await get('/sign-in', { 'x-forwarded-proto': 'https' });
    expect(response.headers.get('strict-transport-security')).toBe('max-age=63072000');
  });

  it('carries no Strict-Transport-Security over plain http, where browsers ignore it', async () => {
    const response = await get('/sign-in');
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('a download of an attachment (/storage/{key})', () => {
  let url: string;

  beforeAll(async () => {
    const client = apiClient(app.baseUrl, key);
    const task = await client.post('/web/tasks', { title: 'With a file' });
    const form = new FormData();
    form.append('file', new Blob(['<script>alert(1)</script>'], { type: 'text/html' }), 'page.html');
    const attachment = await client.post(`/web/tasks/${task.body.id}/attachments`, form);
    expect(attachment.status).toBe(201);
    url = attachment.body.url;
  });

  it("keeps its own sandbox policy, not the pages' weaker one", async () => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(await response.text()).toBe('<script>alert(1)</script>');
  });

  it('may not be framed and is not content-sniffed', async () => {
    const response = await fetch(url);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
