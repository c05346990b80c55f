import Link from 'next/link';
import type { ReactNode } from 'react';
import { Section } from '../../ui/app-shell';
import { Badge, Callout } from '../../ui/feedback';
import { RelativeTime } from '../../ui/relative-time';
import styles from '../audit-log/audit-log.module.css';
import type { LoggedRequest } from './request-table';

/**
 * Everything the log keeps of the request answered with one X-Request-Id: one record, or
 * one per tool call of an MCP batch, which share their POST's id.
 */
export function RequestDetail({
  requestId,
  records,
  keptDays,
  closeHref,
}: {
  requestId: string;
  records: LoggedRequest[];
  keptDays: number;
  closeHref: string;
}) {
  if (records.length === 0) {
    return (
      <Callout tone="danger" role="alert">
        No request of this workspace was answered with <code>{requestId}</code> in the last {keptDays} days.{' '}
        <Link href={closeHref}>Back to the log</Link>
      </Callout>
    );
  }
  return (
    <Section id="request" title="Request" description="Everything the log keeps of this request. No body, query string or secret is kept.">
      {records.map((record) => (
        <dl key={`${record.route} ${record.occurredAt}`} className={styles.facts} aria-label={`${record.method} ${record.route}`}>
          {facts(record).map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ))}
      <p>
        <Link href={closeHref}>Close</Link>
      </p>
    </Section>
  );
}

function facts(record: LoggedRequest): [string, ReactNode][] {
  return [
    ['When', <RelativeTime key="when" iso={record.occurredAt} />],
    ['Key or app', `${record.by} (${record.appId ? `app, ${record.appId}` : `key, ${record.keyId}`})`],
    ['Method', record.method],
    ['Route', <code key="route">{record.route}</code>],
    ['Path', <code key="path">{record.path}</code>],
    [
      'Status',
      <Badge key="status" tone={record.status >= 400 ? 'danger' : 'ok'}>
        {record.status}
      </Badge>,
    ],
    ['Duration', `${record.durationMs} ms`],
    ['Request id', <code key="id">{record.requestId}</code>],
    ['Idempotency-Key', record.idempotencyKey ? <code key="idem">{record.idempotencyKey}</code> : '—'],
    ['Replayed', record.replayed ? 'Yes: the stored answer of its Idempotency-Key, sent again' : 'No'],
    ['Client address', record.ip],
    ['User agent', record.userAgent ?? '—'],
    ['Message', record.message ?? '—'],
  ];
}
