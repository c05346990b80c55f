import type { RecentRequest } from '@/server/settings/recent-requests';
import { Section } from '../../ui/app-shell';
import { EmptyState } from '../../ui/feedback';
import { RelativeTime } from '../../ui/relative-time';
import styles from './activity.module.css';

/** When, from where and with what a key or app was last used: its most recent record in the request log. */
export function LastUse({ last, whose }: { last: RecentRequest | undefined; whose: string }) {
  return (
    <Section id="last-use-heading" title="Last use" description={`The most recent request ${whose} made.`}>
      {last ? (
        <dl className={styles.facts}>
          <dt>Time</dt>
          <dd>
            <RelativeTime iso={last.occurredAt} />
          </dd>
          <dt>Client address</dt>
          <dd>
            <code>{last.ip}</code>
          </dd>
          <dt>User agent</dt>
          <dd className={styles.userAgent}>{last.userAgent ?? <span className={styles.muted}>None sent</span>}</dd>
        </dl>
      ) : (
        <EmptyState title="Not used in the last 30 days">The request log keeps 30 days of requests.</EmptyState>
      )}
    </Section>
  );
}
