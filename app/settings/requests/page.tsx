import type { Metadata } from 'next';
import Link from 'next/link';
import { settingsCaller } from '@/server/settings/router';
import { Button } from '../../ui/button';
import { DataTable } from '../../ui/data-table';
import { Badge, Callout, EmptyState } from '../../ui/feedback';
import { Field, Form, FormActions } from '../../ui/form';
import { RelativeTime } from '../../ui/relative-time';
import { SettingsPage } from '../settings-page';

export const metadata: Metadata = { title: 'Requests · Task API' };
export const dynamic = 'force-dynamic';

type Query = {
  workspace?: string | string[];
  status?: string | string[];
  requestId?: string | string[];
  idempotencyKey?: string | string[];
  after?: string | string[];
};

const FILTERS = ['status', 'requestId', 'idempotencyKey'] as const;

export default function RequestsPage({ searchParams }: { searchParams: Promise<Query> }) {
  return (
    <SettingsPage
      path="/settings/requests"
      title="Requests"
      description="Every request of this workspace's API keys and apps, newest first, kept 30 days: find one by the X-Request-Id it was answered with, its status or its Idempotency-Key."
      searchParams={searchParams}
      refusal={(name) => `You are a member of ${name}, but only its owners and admins can see its request log.`}
      content={(slug, requestHeaders) => <Requests slug={slug} requestHeaders={requestHeaders} searchParams={searchParams} />}
    />
  );
}

const one = (value: string | string[] | undefined) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

async function Requests({ slug, requestHeaders, searchParams }: { slug: string; requestHeaders: Headers; searchParams: Promise<Query> }) {
  const query = await searchParams;
  const filters = Object.fromEntries(FILTERS.map((name) => [name, one(query[name])]));
  let log: Awaited<ReturnType<ReturnType<typeof settingsCaller>['requests']['list']>> | null = null;
  let problem: string | null = null;
  try {
    log = await settingsCaller({ headers: requestHeaders }).requests.list({ workspace: slug, ...filters, after: one(query.after) });
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  const older = log?.nextCursor && `?${new URLSearchParams({ workspace: slug, ...definedOnly(filters), after: log.nextCursor })}`;
  return (
    <>
      <Form method="get" action="/settings/requests" aria-label="Filter requests">
        <input type="hidden" name="workspace" value={slug} />
        <Field id="status" label="Status" help="A code such as 404, or a class: 2xx, 4xx, 5xx.">
          <input id="status" name="status" defaultValue={filters.status ?? ''} />
        </Field>
        <Field id="requestId" label="Request id" help="The X-Request-Id the request was answered with.">
          <input id="requestId" name="requestId" defaultValue={filters.requestId ?? ''} />
        </Field>
        <Field id="idempotencyKey" label="Idempotency-Key">
          <input id="idempotencyKey" name="idempotencyKey" defaultValue={filters.idempotencyKey ?? ''} />
        </Field>
        <FormActions>
          <Button type="submit">Filter</Button>
        </FormActions>
      </Form>
      {problem && (
        <Callout tone="danger" role="alert">
          {problem}
        </Callout>
      )}
      {log && (
        <DataTable
          caption="Requests"
          columns={['Request', 'Status', 'Key or app', 'Time', 'Duration', 'Message']}
          items={log.requests}
          empty={
            <EmptyState title="No requests">Requests made with this workspace&apos;s keys and apps appear here within a second.</EmptyState>
          }
          row={(request) => (
            <tr key={`${request.requestId} ${request.route} ${request.occurredAt}`}>
              <th scope="row" data-label="Request">
                {request.method} <code>{request.path === '/v1/mcp' ? request.route : request.path}</code>
                <br />
                <small>
                  <code>{request.requestId}</code>
                </small>
              </th>
              <td data-label="Status">
                <Badge tone={request.status >= 400 ? 'danger' : 'ok'}>{request.status}</Badge>
                {request.replayed && <> replayed</>}
              </td>
              <td data-label="Key or app">{request.by}</td>
              <td data-label="Time">
                <RelativeTime iso={request.occurredAt} />
              </td>
              <td data-label="Duration">{request.durationMs} ms</td>
              <td data-label="Message">{request.message ?? '—'}</td>
              <td />
            </tr>
          )}
        />
      )}
      {older && <Link href={older}>Older requests</Link>}
    </>
  );
}

function definedOnly(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
