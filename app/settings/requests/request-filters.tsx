import Link from 'next/link';
import type { PrincipalName } from '@/server/keys/names';
import { REQUEST_METHODS } from '@/server/schemas/request-log';
import { REQUEST_ROUTES } from '@/server/settings/request-routes';
import { Button } from '../../ui/button';
import { ControlGroup, Field } from '../../ui/form';
import styles from '../audit-log/audit-log.module.css';
import { fieldTime, type RequestsSearch } from './search';

/**
 * The filters as a plain GET form, so they work before the page's script has loaded and
 * stay in the URL. The errors view has no request id or Idempotency-Key to look for.
 */
export function RequestFilters({
  workspace,
  search,
  principals,
}: {
  workspace: string;
  search: RequestsSearch;
  principals: PrincipalName[];
}) {
  const groups = [
    ['API keys', principals.filter((entry) => entry.kind === 'key')],
    ['Connected apps', principals.filter((entry) => entry.kind === 'app')],
  ] as const;
  const routes = search.route && !REQUEST_ROUTES.includes(search.route) ? [search.route, ...REQUEST_ROUTES] : REQUEST_ROUTES;
  return (
    <form method="get" action="/settings/requests" aria-label="Filter requests" className={styles.filters}>
      <input type="hidden" name="workspace" value={workspace} />
      {search.view === 'errors' && <input type="hidden" name="view" value="errors" />}
      <Field id="filter-principal" label="Key or app">
        <select id="filter-principal" name="principal" defaultValue={search.principal ?? ''}>
          <option value="">Every key and app</option>
          {groups.map(([label, entries]) =>
            entries.length === 0 ? null : (
              <optgroup key={label} label={label}>
                {entries.map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entry.name}
                  </option>
                ))}
              </optgroup>
            ),
          )}
        </select>
      </Field>
      <Field id="filter-status" label="Status" help="A code such as 404, or a class: 2xx, 4xx, 5xx.">
        <input id="filter-status" name="status" defaultValue={search.status ?? ''} />
      </Field>
      <Field id="filter-method" label="Method">
        <select id="filter-method" name="method" defaultValue={search.method ?? ''}>
          <option value="">Any method</option>
          {REQUEST_METHODS.map((method) => (
            <option key={method}>{method}</option>
          ))}
        </select>
      </Field>
      <Field id="filter-route" label="Route">
        <select id="filter-route" name="route" defaultValue={search.route ?? ''}>
          <option value="">Every route</option>
          {routes.map((route) => (
            <option key={route}>{route}</option>
          ))}
        </select>
      </Field>
      {search.view === 'list' && (
        <>
          <Field id="filter-request-id" label="Request id" help="The X-Request-Id the request was answered with.">
            <input id="filter-request-id" name="requestId" defaultValue={search.requestId ?? ''} />
          </Field>
          <Field id="filter-idempotency-key" label="Idempotency-Key">
            <input id="filter-idempotency-key" name="idempotencyKey" defaultValue={search.idempotencyKey ?? ''} />
          </Field>
        </>
      )}
      <Field id="filter-since" label="From (UTC)">
        <input id="filter-since" name="since" type="datetime-local" defaultValue={fieldTime(search.since)} />
      </Field>
      <Field id="filter-until" label="Until (UTC)">
        <input id="filter-until" name="until" type="datetime-local" defaultValue={fieldTime(search.until)} />
      </Field>
      <ControlGroup>
        <Button type="submit" variant="primary">
          Filter
        </Button>
        <Link href={`/settings/requests?workspace=${encodeURIComponent(workspace)}${search.view === 'errors' ? '&view=errors' : ''}`}>
          Clear filters
        </Link>
      </ControlGroup>
    </form>
  );
}
