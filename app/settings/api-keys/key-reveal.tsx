'use client';

import { useEffect, useRef, useState } from 'react';
import styles from '../settings.module.css';

type CopyState = 'idle' | 'copied' | 'failed';

/** The new key, shown once: it lives only in this component's state, never in the URL or storage. */
export function KeyReveal({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copy, setCopy] = useState<CopyState>('idle');

  // Screen readers land on the news, not somewhere in the form.
  useEffect(() => heading.current?.focus(), []);

  async function copyKey() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  }

  return (
    <section className={styles.reveal} aria-labelledby="reveal-heading">
      <h2 id="reveal-heading" ref={heading} tabIndex={-1}>
        Your new key “{name}”
      </h2>
      <p className={styles.warning}>Copy this key now. It cannot be shown again: leaving or reloading this page loses it for good.</p>
      <div className={styles.secretRow}>
        <input
          className={styles.secret}
          value={secret}
          readOnly
          aria-label="New API key"
          data-testid="revealed-key"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className={styles.primary} onClick={copyKey}>
          Copy key
        </button>
      </div>
      <p role="status" className={styles.muted}>
        {copy === 'copied' && 'Copied to the clipboard.'}
        {copy === 'failed' && 'Could not copy: select the key and copy it by hand.'}
      </p>
      <button type="button" onClick={onDone}>
        I have saved it
      </button>
    </section>
  );
}
