import { getPathRegExp, normalizePath } from 'trpc-to-openapi';
import type { Scope } from '../keys/scopes';
import { MAX_JSON_VALUES } from './messages';
import { procedureMetas } from './operation';
import { publicRouter } from './router';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One operation of the public API as a request finds it, before its body is read. */
export interface RouteMatch {
  method: HttpMethod;
  /** The procedure's path in the router, e.g. `tasks.create`. */
  procedure: string;
  /** Its path template, e.g. `/{projectSlug}/tasks`. */
  template: string;
  /** Null: any key or app may call it (see workspaceProcedure). */
  scope: Scope | null;
  /** The operation is on the workspace, its path naming no project: admitToWorkspace is its gate. */
  workspace: boolean;
  /** On the workspace, and open to a key limited to one project, for what its project holds. */
  projectKeys: boolean;
  /** Its answer holds a secret shown once: an Idempotency-Key's record keeps it sealed. */
  secretInAnswer: boolean;
  /** The operation may be asked without a body. */
  bodyless: boolean;
  /** The status of its answer on success. */
  successStatus: number;
  /** Its answer on success is a task, sent with the task's ETag. */
  etag: boolean;
  /** The most JSON values its body may hold. */
  jsonValues: number;
  /** Path parameters as they stand in the path (still percent-encoded). */
  params: Record<string, string>;
}

interface Route {
  method: HttpMethod;
  procedure: string;
  template: string;
  scope: Scope | null;
  workspace: boolean;
  projectKeys: boolean;
  secretInAnswer: boolean;
  bodyless: boolean;
  successStatus: number;
  etag: boolean;
  jsonValues: number;
  pattern: RegExp;
  /** Path parameters in the template: of two templates that match a path, the one with fewer names it. */
  params: number;
}

/**
 * The router's operations with the library's own path patterns, in registration
 * order: a request is matched here exactly as trpc-to-openapi will match it, so
 * the gate can run on the operation's scope before the body is read.
 */
const routes: Route[] = [...procedureMetas(publicRouter)].map(([procedure, meta]) => {
  if (!meta.openapi || meta.scope === undefined) throw new Error(`Public procedure ${procedure} has no OpenAPI path or scope`);
  return {
    method: meta.openapi.method as HttpMethod,
    procedure,
    template: meta.openapi.path,
    scope: meta.scope,
    workspace: meta.workspace === true,
    projectKeys: meta.projectKeys === true,
    secretInAnswer: meta.secretInAnswer === true,
    bodyless: meta.bodyless === true,
    successStatus: meta.successStatus ?? 200,
    etag: meta.etag === true,
    jsonValues: meta.jsonValues ?? MAX_JSON_VALUES,
    pattern: getPathRegExp(normalizePath(meta.openapi.path)),
    params: meta.openapi.path.split('{').length - 1,
  };
});

/** The path templates of the public API's operations, as the request log names them (without its prefix). */
export const ROUTE_TEMPLATES: readonly string[] = [...new Set(routes.map((route) => route.template))].sort();

/**
 * The operation `method path` names, or the methods the path does allow (none: no
 * such path). A fixed segment wins over a parameter: `/attachments/uploads` is the
 * uploads' path for every method, never an attachment named `uploads`.
 */
export function findRoute(method: string, path: string): RouteMatch | { allowed: HttpMethod[] } {
  const routePath = normalizePath(path);
  // One pass, in registration order, keeping the matches that name the fewest parameters;
  // a pattern naming more than a match found already is not tried.
  let fewest = Infinity;
  let best: { route: Route; match: RegExpExecArray }[] = [];
  for (const route of routes) {
    if (route.params > fewest) continue;
    const match = route.pattern.exec(routePath);
    if (!match) continue;
    if (route.params < fewest) {
      fewest = route.params;
      best = [];
    }
    best.push({ route, match });
  }
  const allowed: HttpMethod[] = [];
  for (const { route, match } of best) {
    if (route.method === method) {
      return {
        method: route.method,
        procedure: route.procedure,
        template: route.template,
        scope: route.scope,
        workspace: route.workspace,
        projectKeys: route.projectKeys,
        secretInAnswer: route.secretInAnswer,
        bodyless: route.bodyless,
        successStatus: route.successStatus,
        etag: route.etag,
        jsonValues: route.jsonValues,
        params: { ...match.groups },
      };
    }
    if (!allowed.includes(route.method)) allowed.push(route.method);
  }
  return { allowed };
}
