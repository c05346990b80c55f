'use client';

import { useEffect, useRef } from 'react';
import type { KeyView } from '@/server/settings/key-view';
import styles from '../settings.module.css';

/** A modal confirmation: it traps focus, and Escape or Cancel leaves the key alone. */
export function RevokeDialog({ apiKey, onConfirm, onCancel }: { apiKey: KeyView; onConfirm: () => void; onCancel: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  // Start on the harmless choice: an Enter pressed in passing must not revoke.
  useEffect(() => {
    dialog.current?.showModal();
    cancel.current?.focus();
  }, []);

  return (
    <dialog ref={dialog} className={styles.dialog} aria-labelledby="revoke-heading" onClose={onCancel}>
      <h2 id="revoke-heading">Revoke “{apiKey.name}”?</h2>
      <p>
        Anything using <code>{apiKey.hint}</code> gets 401 Unauthorized from the next request on. This cannot be undone.
      </p>
      <div className={styles.actions}>
        <button type="button" className={styles.danger} onClick={onConfirm}>
          Revoke key
        </button>
        <button type="button" ref={cancel} onClick={() => dialog.current?.close()}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
