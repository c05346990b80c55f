import type { KeyView } from '@/server/settings/key-view';
import { Section } from '../../../ui/app-shell';
import { Badge } from '../../../ui/feedback';
import { RelativeTime } from '../../../ui/relative-time';
import styles from '../../activity/activity.module.css';
import { STATE_BADGE } from '../format';

/** The key as the list shows it, as facts one under the other. */
export function KeySummary({ apiKey }: { apiKey: KeyView }) {
  return (
    <Section id="key-heading" title={apiKey.name}>
      <dl className={styles.facts}>
        <dt>State</dt>
        <dd>
          <Badge tone={STATE_BADGE[apiKey.state].tone}>{STATE_BADGE[apiKey.state].label}</Badge>
        </dd>
        <dt>Key</dt>
        <dd>
          <code>{apiKey.hint}</code>
        </dd>
        <dt>Scopes</dt>
        <dd>{apiKey.scopes.join(', ')}</dd>
        <dt>Projects</dt>
        <dd>{apiKey.project ? apiKey.project.name : 'All projects'}</dd>
        <dt>Created</dt>
        <dd>
          <RelativeTime iso={apiKey.createdAt} />
          {apiKey.createdBy && <span className={styles.muted}> by {apiKey.createdBy}</span>}
        </dd>
        <dt>Expires</dt>
        <dd>{apiKey.expiresAt ? <RelativeTime iso={apiKey.expiresAt} /> : 'Never'}</dd>
      </dl>
    </Section>
  );
}
