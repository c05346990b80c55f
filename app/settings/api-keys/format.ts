import type { KeyView } from '@/server/settings/key-view';
import type { Tone } from '../../ui/feedback';

export const STATE_BADGE: Record<KeyView['state'], { label: string; tone: Tone }> = {
  active: { label: 'Active', tone: 'ok' },
  expired: { label: 'Expired', tone: 'muted' },
  revoked: { label: 'Revoked', tone: 'danger' },
};
