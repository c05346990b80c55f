import type { KeyView } from '@/server/settings/key-view';

export const STATE_LABEL: Record<KeyView['state'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };
