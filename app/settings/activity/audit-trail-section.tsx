import { Section } from '../../ui/app-shell';
import { EmptyState } from '../../ui/feedback';

/**
 * The place on a key's or app's page for its audit trail (created, revoked, presented
 * after revocation); the workspace's audit log fills it, and until then it says so.
 */
export function AuditTrailSection({ what }: { what: 'key' | 'app' }) {
  return (
    <Section id="audit-heading" title="Audit trail" description={`Who changed this ${what}, and when.`}>
      <EmptyState title="No audit events recorded yet">Changes to this {what} are listed here as they are recorded.</EmptyState>
    </Section>
  );
}
