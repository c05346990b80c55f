import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Scope } from '../keys/scopes';
import { routerProcedures } from '../vendor/trpc-router-procedures';
import {
  BODY_NOT_JSON,
  BODY_NOT_OBJECT,
  BODY_TOO_LARGE,
  bodyTooManyValues,
  BODY_TOO_SLOW,
  IDEMPOTENCY_KEY_INVALID,
  JSON_CONTENT_TYPE,
  MAX_JSON_VALUES,
  unknownFields,
} from './messages';

/** Statuses an operation may add to those every operation can answer (see openapi.ts). */
export type OperationErrors = Partial<Record<400 | 404 | 408 | 409 | 412 | 413 | 415, string[]>>;

/** The conditional request field an operation honours (RFC 9110): If-None-Match on reads, If-Match on writes. */
export type Precondition = 'If-None-Match' | 'If-Match';

/**
 * `scope` and `workspace` are set by the procedure builder (server/api/trpc.ts), the
 * rest by `operation`. A scope of null: any key or app may call it, for its own.
 */
export type PublicMeta = OpenApiMeta<{
  successStatus?: 200 | 201;
  scope?: Scope | null;
  /** The operation is on the workspace: its path names no project. */
  workspace?: true;
  /** On the workspace, and a key limited to one project may call it too, for what its project holds. */
  projectKeys?: true;
  /** Its answer holds a secret shown once: an Idempotency-Key's record keeps it sealed. */
  secretInAnswer?: true;
  errors?: OperationErrors;
  /** The success answer carries the task's ETag. */
  etag?: true;
  precondition?: Precondition;
  /** A POST whose path says everything: it may come without a body (and Content-Type) at all. */
  bodyless?: true;
  /** The most JSON values its body may hold, when more than MAX_JSON_VALUES (a batch's). */
  jsonValues?: number;
  /** Its answer is a stream of the type named here, served by the REST edge (server/http/audit-export.ts), not a tool. */
  streamed?: { 'application/x-ndjson': string; 'text/csv': string };
}>;

/** What any JSON body can be refused for, before its fields are looked at. */
const jsonBodyErrors = (jsonValues = MAX_JSON_VALUES): OperationErrors => ({
  400: [BODY_NOT_JSON, BODY_NOT_OBJECT, bodyTooManyValues(jsonValues), unknownFields(['<name>'])],
  413: [BODY_TOO_LARGE],
  415: [JSON_CONTENT_TYPE],
});

/**
 * The OpenAPI metadata of a public operation; every one needs a key. `errors`
 * lists the messages it may answer besides those of every operation (401, 403,
 * 404 `Project not found`, 429, 500, 503); a POST or PATCH also answers those of
 * its Idempotency-Key (openapi.ts) and, with a JSON body, those of any JSON body.
 */
export function operation(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: `/${string}`,
  options: {
    summary: string;
    tag: string;
    description?: string;
    successStatus?: 201;
    errors?: OperationErrors;
    multipart?: true;
    etag?: true;
    precondition?: Precondition;
    /** A POST whose path says everything: it may come without a body (and Content-Type) at all. */
    bodyless?: true;
    /** The most JSON values its body may hold, when more than MAX_JSON_VALUES (a batch's). */
    jsonValues?: number;
    streamed?: PublicMeta['streamed'];
    secretInAnswer?: true;
  },
): PublicMeta {
  const errors =
    method === 'POST' || method === 'PATCH'
      ? mergeErrors(
          mergeErrors(
            { 400: [IDEMPOTENCY_KEY_INVALID], 408: [BODY_TOO_SLOW] },
            options.multipart ? {} : jsonBodyErrors(options.jsonValues),
          ),
          options.errors ?? {},
        )
      : (options.errors ?? {});
  return {
    successStatus: options.successStatus,
    errors,
    etag: options.etag,
    precondition: options.precondition,
    ...(options.bodyless && { bodyless: true }),
    ...(options.jsonValues && { jsonValues: options.jsonValues }),
    ...(options.streamed && { streamed: options.streamed }),
    ...(options.secretInAnswer && { secretInAnswer: true }),
    openapi: {
      method,
      path,
      protect: true,
      summary: options.summary,
      description: options.description,
      tags: [options.tag],
    },
  };
}

function mergeErrors(first: OperationErrors, second: OperationErrors): OperationErrors {
  const merged: OperationErrors = {};
  for (const status of [400, 404, 408, 409, 412, 413, 415] as const) {
    const messages = [...(first[status] ?? []), ...(second[status] ?? [])];
    if (messages.length > 0) merged[status] = messages;
  }
  return merged;
}

/** The metadata of every procedure of a router, by procedure path (`tasks.create`). */
export function procedureMetas(router: { _def: { procedures: object } }): Map<string, PublicMeta> {
  return routerProcedures<PublicMeta>(router);
}
