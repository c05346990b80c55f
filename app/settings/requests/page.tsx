import type { Metadata } from 'next';
import Link from 'next/link';
import { settingsCaller } from '@/server/settings/router';
import { ERRORS_DEFAULT_DAYS } from '@/server/settings/requests';
import { Section } from '../../ui/app-shell';
import { Callout } from '../../ui/feedback';
import { RequestLogOff, requestLogDays } from '../request-log-off';
import { SettingsPage } from '../settings-page';
import styles from '../audit-log/audit-log.module.css';
import { ErrorGroups } from './error-groups';
import { RequestDetail } from './request-detail';
import { RequestFilters } from './request-filters';
import { RequestTable } from './request-table';
import { requestsHref, requestsSearch, sharedFilters, type RequestsSearch, type RequestsSearchParams } from './search';
import { ViewTabs } from './view-tabs';

export const metadata: Metadata = { title: 'Requests · Task API' };
export const dynamic = 'force-dynamic';

export default function RequestsPage({ searchParams }: { searchParams: Promise<RequestsSearchParams> }) {
  const days = requestLogDays();
  return (
    <SettingsPage
      path="/settings/requests"
      title="Requests"
      description={`Every request of this workspace's API keys and apps, newest first, kept ${days} days: find one by the X-Request-Id it was answered with, its key or app, status, route or Idempotency-Key, or see which errors keep coming.`}
      searchParams={searchParams}
      refusal={(name) => `You are a member of ${name}, but only its owners and admins can see its request log.`}
      content={(slug, requestHeaders) => <Requests slug={slug} requestHeaders={requestHeaders} searchParams={searchParams} />}
    />
  );
}

async function Requests({
  slug,
  requestHeaders,
  searchParams,
}: {
  slug: string;
  requestHeaders: Headers;
  searchParams: Promise<RequestsSearchParams>;
}) {
  const search = requestsSearch(await searchParams);
  const caller = settingsCaller({ headers: requestHeaders }).requests;
  const detail = search.request ? caller.get({ workspace: slug, requestId: search.request }) : null;
  const view =
    search.view === 'errors'
      ? caller.errors({ workspace: slug, ...sharedFilters(search) }).then((errors) => ({ ...errors, kind: 'errors' as const }))
      : caller
          .list({
            workspace: slug,
            ...sharedFilters(search),
            requestId: search.requestId,
            idempotencyKey: search.idempotencyKey,
            after: search.after,
          })
          .then((list) => ({ ...list, kind: 'list' as const }));
  const [shown, opened, problem] = await Promise.all([view, detail]).then(
    ([shown, opened]) => [shown, opened, null] as const,
    (error: unknown) => [null, null, error instanceof Error ? error.message : String(error)] as const,
  );
  const href = (changes: Partial<RequestsSearch>) => requestsHref(slug, search, changes);
  return (
    <>
      {requestLogDays() === 0 && <RequestLogOff />}
      {search.request && opened && (
        <RequestDetail
          requestId={search.request}
          records={opened.requests}
          keptDays={requestLogDays()}
          closeHref={href({ request: undefined })}
        />
      )}
      <ViewTabs current={search.view} href={(view) => href({ view, after: undefined, request: undefined })} />
      <Section id="filters" title="Filters" description="Narrow the log by key or app, status, method, route and time; times are UTC.">
        <RequestFilters workspace={slug} search={search} principals={shown?.principals ?? []} />
      </Section>
      {problem && (
        <Callout tone="danger" role="alert">
          {problem}
        </Callout>
      )}
      {shown?.kind === 'list' && (
        <Section id="requests" title="Requests" description="Newest first, 50 a page. Open a request for everything the log keeps of it.">
          <RequestTable
            requests={shown.requests}
            filtered={[...Object.values(sharedFilters(search)), search.requestId, search.idempotencyKey].some(Boolean)}
            detailHref={(requestId) => href({ request: requestId })}
          />
          {(shown.nextCursor || search.after) && (
            <p className={styles.pages}>
              {search.after && <Link href={href({ after: undefined, request: undefined })}>Newest requests</Link>}
              {shown.nextCursor && <Link href={href({ after: shown.nextCursor, request: undefined })}>Older requests</Link>}
            </p>
          )}
        </Section>
      )}
      {shown?.kind === 'errors' && (
        <Section
          id="errors"
          title="Errors"
          description={`The 4xx and 5xx answers ${search.since ? 'of the range' : `of the last ${ERRORS_DEFAULT_DAYS} days`}, grouped by route, status and message, the most frequent first.`}
        >
          <ErrorGroups
            groups={shown.groups}
            requestsHref={(group) =>
              href({
                view: 'list',
                method: group.method as RequestsSearch['method'],
                route: group.route,
                status: String(group.status),
                since: shown.since,
                request: undefined,
              })
            }
          />
        </Section>
      )}
    </>
  );
}
