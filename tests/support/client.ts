import { z } from 'zod';
import { errorSchema } from '../../server/schemas/common';
import { checkAgainstDocument } from './contract';
import type { ApiError, DeleteBody, GetBody, PatchBody, PostBody } from './types';

/** An answer of the public API. Its body is typed as the operation's success; `errorOf` reads an error. */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

type HeaderMap = Record<string, string>;

/** A thin client for the public API, as a script would use it; every answer is checked against the OpenAPI document. */
export function apiClient(baseUrl: string, key?: string) {
  async function call<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; headers?: HeaderMap } = {},
  ): Promise<Answer<T>> {
    const headers: HeaderMap = { ...options.headers };
    if (key && !('authorization' in headers) && !('x-api-key' in headers)) headers.authorization = `Bearer ${key}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData || typeof options.body === 'string') body = options.body;
    else if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(`${baseUrl}/v1/public${path}`, { method, headers, body });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    checkAgainstDocument(method, path, response.status, response.headers.get('content-type'), json);
    return { status: response.status, headers: response.headers, body: json as T, text };
  }
  return {
    call,
    get: <P extends string>(path: P, headers?: HeaderMap) => call<GetBody<P>>('GET', path, { headers }),
    post: <P extends string>(path: P, body?: unknown, headers?: HeaderMap) => call<PostBody<P>>('POST', path, { body, headers }),
    patch: <P extends string>(path: P, body?: unknown, headers?: HeaderMap) => call<PatchBody<P>>('PATCH', path, { body, headers }),
    delete: <P extends string>(path: P, headers?: HeaderMap) => call<DeleteBody<P>>('DELETE', path, { headers }),
  };
}

const exactError = z.strictObject(errorSchema.shape);

/** The body of an error answer, checked to be exactly `{statusCode, message}`. */
export function errorOf(answer: Answer): ApiError {
  return exactError.parse(answer.body);
}
