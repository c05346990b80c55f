'use client';

import type { KeyView } from '@/server/settings/key-view';
import { ConfirmDialog } from '../../ui/confirm-dialog';

export function RevokeDialog({ apiKey, onConfirm, onCancel }: { apiKey: KeyView; onConfirm: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog title={`Revoke “${apiKey.name}”?`} confirmLabel="Revoke key" onConfirm={onConfirm} onCancel={onCancel}>
      <p>
        Anything using <code>{apiKey.hint}</code> gets 401 Unauthorized from the next request on. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
