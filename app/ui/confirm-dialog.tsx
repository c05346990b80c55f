'use client';

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button';
import styles from './confirm-dialog.module.css';

/**
 * A modal confirmation of something that cannot be undone: it traps focus, and
 * Escape or Cancel leaves everything as it was.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const heading = useId();

  // Start on the harmless choice: an Enter pressed in passing must not confirm.
  useEffect(() => {
    dialog.current?.showModal();
    cancel.current?.focus();
  }, []);

  return (
    <dialog ref={dialog} className={styles.dialog} aria-labelledby={heading} onClose={onCancel}>
      <h2 id={heading} className={styles.title}>
        {title}
      </h2>
      <div className={styles.body}>{children}</div>
      <div className={styles.actions}>
        <Button variant="danger" onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button ref={cancel} onClick={() => dialog.current?.close()}>
          Cancel
        </Button>
      </div>
    </dialog>
  );
}
