import { checkAgainstDocument } from './contract';

/** A thin client for the public API, as a script would use it; every answer is checked against the OpenAPI document. */
export function apiClient(baseUrl: string, key?: string) {
  async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (key && !('authorization' in headers) && !('x-api-key' in headers)) headers.authorization = `Bearer ${key}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData || typeof options.body === 'string') body = options.body;
    else if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(`${baseUrl}/v1/public${path}`, { method, headers, body });
    const text = await response.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    checkAgainstDocument(method, path, response.status, response.headers.get('content-type'), json);
    return { status: response.status, headers: response.headers, body: json, text };
  }
  return {
    call,
    get: (path: string, headers?: Record<string, string>) => call('GET', path, { headers }),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', path, { body, headers }),
    patch: (path: string, body?: unknown, headers?: Record<string, string>) => call('PATCH', path, { body, headers }),
    delete: (path: string, headers?: Record<string, string>) => call('DELETE', path, { headers }),
  };
}
