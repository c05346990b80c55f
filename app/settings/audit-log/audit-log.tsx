import Link from 'next/link';
import type { ReactNode } from 'react';
import type { AuditEvent } from '@/server/schemas/audit';
import { ACTOR_TYPES, AUDIT_ACTION_GROUPS, TARGET_TYPES } from '@/server/schemas/audit';
import { Section } from '../../ui/app-shell';
import { Button } from '../../ui/button';
import { DataTable } from '../../ui/data-table';
import { Badge, Callout, EmptyState } from '../../ui/feedback';
import { ControlGroup, Field } from '../../ui/form';
import { RelativeTime } from '../../ui/relative-time';
import styles from './audit-log.module.css';
import { auditHref, PERIODS, type AuditSearch } from './search';

const GROUP_NAMES: Record<string, string> = {
  api_key: 'API keys',
  oauth_app: 'Connected apps',
  webhook_endpoint: 'Webhook endpoints',
  webhook_delivery: 'Webhook deliveries',
  member: 'Members',
  sign_in: 'Sign-ins',
  workspace: 'Workspace',
};

const words = (name: string) => name.replaceAll('_', ' ');
const who = (party: AuditEvent['actor'] | AuditEvent['target']) => party.name ?? party.id ?? words(party.type);
const tone = (action: string) => (/(revoked|deleted|removed|failed|locked_out|rejected|disabled)$/.test(action) ? 'warn' : 'muted');

/** The filters, a GET form (it works before the page's script has loaded), then the events, newest first. */
export function AuditLog({
  workspace,
  search,
  events,
  nextCursor,
  detail,
}: {
  workspace: string;
  search: AuditSearch;
  events: AuditEvent[];
  nextCursor: string | null;
  detail: AuditEvent | null;
}) {
  const filtered = Boolean(search.group || search.actorType || search.actorId || search.targetType || search.targetId || search.period);
  return (
    <>
      {search.event && <EventDetail event={detail} closeHref={auditHref(workspace, search, { event: undefined })} />}
      <Section id="filters" title="Filters" description="Narrow the log by what happened, who did it, what it was done to and when.">
        <form method="get" action="/settings/audit-log" className={styles.filters}>
          <input type="hidden" name="workspace" value={workspace} />
          <Field id="filter-action" label="Action">
            <select id="filter-action" name="action" defaultValue={search.group ?? ''}>
              <option value="">All actions</option>
              {AUDIT_ACTION_GROUPS.map((group) => (
                <option key={group} value={group}>
                  {GROUP_NAMES[group] ?? words(group)}
                </option>
              ))}
            </select>
          </Field>
          <Field id="filter-period" label="Time">
            <select id="filter-period" name="period" defaultValue={search.period ?? ''}>
              <option value="">All kept (400 days)</option>
              {Object.entries(PERIODS).map(([value, [label]]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          <Field id="filter-actor-type" label="Actor">
            <select id="filter-actor-type" name="actorType" defaultValue={search.actorType ?? ''}>
              <option value="">Anyone</option>
              {ACTOR_TYPES.map((type) => (
                <option key={type} value={type}>
                  {words(type)}
                </option>
              ))}
            </select>
          </Field>
          <Field id="filter-actor-id" label="Actor id">
            <input id="filter-actor-id" name="actorId" defaultValue={search.actorId ?? ''} placeholder="a person's, key's or app's id" />
          </Field>
          <Field id="filter-target-type" label="Target">
            <select id="filter-target-type" name="targetType" defaultValue={search.targetType ?? ''}>
              <option value="">Anything</option>
              {TARGET_TYPES.map((type) => (
                <option key={type} value={type}>
                  {words(type)}
                </option>
              ))}
            </select>
          </Field>
          <Field id="filter-target-id" label="Target id">
            <input id="filter-target-id" name="targetId" defaultValue={search.targetId ?? ''} placeholder="its id" />
          </Field>
          <ControlGroup>
            <Button type="submit" variant="primary">
              Filter
            </Button>
            {filtered && <Link href={`/settings/audit-log?workspace=${encodeURIComponent(workspace)}`}>Clear filters</Link>}
          </ControlGroup>
        </form>
      </Section>
      <Section
        id="events"
        title="Events"
        description="Newest first. Open an event for its address, browser, request id and what it changed."
      >
        <DataTable
          caption="Audit events"
          columns={['Action', 'Actor', 'Target', 'When', 'Address']}
          items={events}
          empty={
            <EmptyState title={filtered ? 'No events match these filters' : 'No events yet'}>
              {filtered
                ? 'Widen the time or clear a filter.'
                : 'Issuing or revoking a key, connecting an app, changing a webhook or a member, and signing in are recorded here.'}
            </EmptyState>
          }
          row={(event) => (
            <tr key={event.id}>
              <th scope="row" data-label="Action">
                <Badge tone={tone(event.action)}>{event.action}</Badge>
              </th>
              <td data-label="Actor">
                {who(event.actor)} <span className={styles.kind}>{words(event.actor.type)}</span>
              </td>
              <td data-label="Target">
                {who(event.target)} <span className={styles.kind}>{words(event.target.type)}</span>
              </td>
              <td data-label="When">
                <RelativeTime iso={event.occurredAt} />
              </td>
              <td data-label="Address">{event.ip ?? '—'}</td>
              <td>
                <Link
                  href={auditHref(workspace, search, { event: event.id })}
                  aria-label={`Details of ${event.action} by ${who(event.actor)}`}
                >
                  Details
                </Link>
              </td>
            </tr>
          )}
        />
        {(nextCursor || search.after) && (
          <p className={styles.pages}>
            {search.after && <Link href={auditHref(workspace, search, { after: undefined, event: undefined })}>Newest events</Link>}
            {nextCursor && <Link href={auditHref(workspace, search, { after: nextCursor, event: undefined })}>Older events</Link>}
          </p>
        )}
      </Section>
    </>
  );
}

function EventDetail({ event, closeHref }: { event: AuditEvent | null; closeHref: string }) {
  if (!event) {
    return (
      <Callout tone="danger" role="alert">
        This event is not in this workspace&apos;s log (it may be older than 400 days). <Link href={closeHref}>Back to the log</Link>
      </Callout>
    );
  }
  const facts: [string, ReactNode][] = [
    ['Action', event.action],
    ['When', <RelativeTime key="when" iso={event.occurredAt} />],
    ['Actor', `${who(event.actor)} (${words(event.actor.type)}${event.actor.id ? `, ${event.actor.id}` : ''})`],
    ['Target', `${who(event.target)} (${words(event.target.type)}${event.target.id ? `, ${event.target.id}` : ''})`],
    ['Address', event.ip ?? '—'],
    ['Browser or client', event.userAgent ?? '—'],
    ['Request id', event.requestId ?? '—'],
    ['Event id', event.id],
  ];
  return (
    <Section
      id="event"
      title="Event"
      description="Everything the log keeps of this event. Keys, secrets, tokens and passwords are never kept."
    >
      <dl className={styles.facts}>
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {event.changes && (
        <table className={styles.changes}>
          <caption>What changed</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(event.changes).map(([field, change]) => (
              <tr key={field}>
                <th scope="row">{field}</th>
                <td>{shown(change.before)}</td>
                <td>{shown(change.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <Link href={closeHref}>Close</Link>
      </p>
    </Section>
  );
}

/** A changed value as text; a time stays as the server's UTC text would read, without the raw ISO form. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value)) return `${value.slice(0, 10)} ${value.slice(11, 16)} UTC`;
  return String(value);
}
