import type { AppView } from '@/server/settings/apps';
import { Section } from '../../../ui/app-shell';
import { Badge } from '../../../ui/feedback';
import { RelativeTime } from '../../../ui/relative-time';
import styles from '../../activity/activity.module.css';

/** The app as the list shows it, as facts one under the other. */
export function AppSummary({ app }: { app: AppView }) {
  return (
    <Section id="app-heading" title={app.app}>
      <dl className={styles.facts}>
        <dt>State</dt>
        <dd>
          <Badge tone={app.state === 'active' ? 'ok' : 'muted'}>{app.state}</Badge>
        </dd>
        <dt>Approved by</dt>
        <dd>{app.approvedBy ?? '—'}</dd>
        <dt>Scopes</dt>
        <dd>{app.scopes.join(', ')}</dd>
        <dt>Project</dt>
        <dd>{app.project?.name ?? 'All projects'}</dd>
        <dt>Connected</dt>
        <dd>
          <RelativeTime iso={app.createdAt} />
        </dd>
      </dl>
    </Section>
  );
}
