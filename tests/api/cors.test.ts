import { describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { appOrigin } from '../support/settings';

const api = useApi();
const ORIGIN = 'https://integration.example';

describe('CORS, as GitHub answers it', () => {
  it('every answer lets any origin read it, without credentials, and exposes the retry and request headers', async () => {
    const [ok, refused] = await Promise.all([
      api.client.get('/web/statuses', { origin: ORIGIN }),
      api.clientWith('tk_wrong').get('/web/statuses', { origin: ORIGIN }),
    ]);

    for (const response of [ok, refused]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('access-control-expose-headers')?.split(', ')).toEqual(
        expect.arrayContaining([
          'X-Request-Id',
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
          'RateLimit-Policy',
          'RateLimit',
          'Retry-After',
          'ETag',
        ]),
      );
    }
  });

  it('a preflight of a known path answers 204 without a key, naming the methods and headers a page may send', async () => {
    const response = await fetch(`${api.server.baseUrl}/v1/public/web/tasks/WEB-1`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, PATCH, DELETE, HEAD, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'Authorization, X-API-Key, Content-Type, If-Match, If-None-Match, Idempotency-Key',
    );
    expect(response.headers.get('access-control-max-age')).toBe('86400');
    expect(response.headers.get('allow')).toBe('GET, PATCH, DELETE, HEAD, OPTIONS');
  });

  it('a preflight of an unknown path answers 404', async () => {
    const response = await fetch(`${api.server.baseUrl}/v1/public/web/nothing-here`, { method: 'OPTIONS', headers: { origin: ORIGIN } });

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ statusCode: 404, message: 'Not found' });
  });

  it('the OpenAPI document may be read from any origin', async () => {
    const response = await fetch(`${api.server.baseUrl}/v1/public/openapi.json`, { headers: { origin: ORIGIN } });

    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('401', () => {
  it('says how to authenticate: WWW-Authenticate: Bearer, naming the protected resource metadata (RFC 9728)', async () => {
    const response = await api.clientWith('tk_wrong').get('/web/statuses');

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${appOrigin()}/.well-known/oauth-protected-resource/v1/public"`,
    );
  });
});
