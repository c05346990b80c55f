import { OAUTH_BASE_PATH } from './origin';

// What an authorization request is made of; the library's signature fields are left out, as it
// signs the request afresh when it sends the browser on.
const AUTHORIZATION_PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'nonce',
];

/**
 * Where sign-in sends the browser when the authorization endpoint sent it there: back to
 * the authorization endpoint with the same request, which, signed in now, goes on to
 * consent. Null for an ordinary sign-in.
 */
export function authorizationToContinue(query: URLSearchParams): string | null {
  if (!query.get('client_id') || !query.get('sig')) return null;
  const request = new URLSearchParams();
  for (const name of AUTHORIZATION_PARAMETERS) for (const value of query.getAll(name)) request.append(name, value);
  return `${OAUTH_BASE_PATH}/oauth2/authorize?${request}`;
}

type SearchParams = Record<string, string | string[] | undefined>;

/** A page's searchParams as the query string they came from. */
export function queryOf(params: SearchParams): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(name, each);
  }
  return query;
}
