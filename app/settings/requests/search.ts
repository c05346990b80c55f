import { REQUEST_METHODS, statusFilter } from '@/server/schemas/request-log';
import { changeCursor } from '@/server/schemas/task';

export type RequestsSearchParams = Record<string, string | string[] | undefined>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What a `datetime-local` field sends: the page reads it as UTC, as its label says. */
const LOCAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/;

export type RequestsView = 'list' | 'errors';

export interface RequestsSearch {
  view: RequestsView;
  principal: string | undefined;
  status: string | undefined;
  method: (typeof REQUEST_METHODS)[number] | undefined;
  route: string | undefined;
  requestId: string | undefined;
  idempotencyKey: string | undefined;
  /** ISO times, UTC. */
  since: string | undefined;
  until: string | undefined;
  after: string | undefined;
  /** The X-Request-Id whose detail is open. */
  request: string | undefined;
}

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 300) : undefined;
const uuid = (value: string | undefined) => (value && UUID.test(value) ? value.toLowerCase() : undefined);

function utc(value: string | undefined): string | undefined {
  const text = value && LOCAL_TIME.test(value) ? `${value}Z` : value;
  const time = text ? new Date(text) : null;
  return time && /T/.test(text ?? '') && !Number.isNaN(time.getTime()) ? time.toISOString() : undefined;
}

/**
 * The page's filters, view and open request, kept in its URL so that a view can be linked
 * and reloaded: a value the page cannot use is dropped rather than refused, as the audit log does.
 */
export function requestsSearch(params: RequestsSearchParams): RequestsSearch {
  const method = one(params.method)?.toUpperCase();
  return {
    view: one(params.view) === 'errors' ? 'errors' : 'list',
    principal: uuid(one(params.principal)),
    status: [one(params.status)?.toLowerCase()].find((status) => status && statusFilter.safeParse(status).success),
    method: REQUEST_METHODS.find((choice) => choice === method),
    route: one(params.route),
    requestId: uuid(one(params.requestId)),
    idempotencyKey: one(params.idempotencyKey)?.slice(0, 255),
    since: utc(one(params.since)),
    until: utc(one(params.until)),
    after: [one(params.after)].find((cursor) => cursor && changeCursor().safeParse(cursor).success),
    request: uuid(one(params.request)),
  };
}

/** The filters the list and the errors view share, as the settings API takes them. */
export function sharedFilters(search: RequestsSearch) {
  return {
    principal: search.principal,
    status: search.status,
    method: search.method,
    route: search.route,
    since: search.since,
    until: search.until,
  };
}

/** The page's URL with this search and `changes` applied. */
export function requestsHref(workspace: string, search: RequestsSearch, changes: Partial<RequestsSearch>): string {
  const params = new URLSearchParams({ workspace });
  const values: Partial<RequestsSearch> = { ...search, ...changes };
  for (const [name, value] of Object.entries(values)) if (value && !(name === 'view' && value === 'list')) params.set(name, value);
  return `/settings/requests?${params}`;
}

/** An ISO time as the `datetime-local` field shows it, in UTC to the minute. */
export const fieldTime = (iso: string | undefined) => iso?.slice(0, 16) ?? '';
