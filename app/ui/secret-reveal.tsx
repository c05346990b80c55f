'use client';

import { useEffect, useRef, useState } from 'react';
import { Button } from './button';
import styles from './secret-reveal.module.css';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * A secret shown once, with a copy button: it lives only in the caller's state,
 * never in the URL or storage. Focus moves to the heading, so screen readers land
 * on the news, not somewhere in the form.
 */
export function SecretReveal({
  id,
  title,
  label,
  copyLabel,
  secret,
  onDone,
}: {
  id: string;
  title: string;
  /** The field's accessible name, e.g. "New API key". */
  label: string;
  copyLabel: string;
  secret: string;
  onDone: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copy, setCopy] = useState<CopyState>('idle');

  useEffect(() => heading.current?.focus(), []);

  async function copySecret() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  }

  return (
    <section className={styles.reveal} aria-labelledby={id}>
      <h2 id={id} ref={heading} tabIndex={-1} className={styles.title}>
        {title}
      </h2>
      <p className={styles.warning}>Copy it now. It cannot be shown again: leaving or reloading this page loses it for good.</p>
      <div className={styles.row}>
        <input
          className={styles.secret}
          value={secret}
          readOnly
          aria-label={label}
          data-testid="revealed-secret"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="primary" onClick={copySecret}>
          {copyLabel}
        </Button>
      </div>
      <p role="status" className={styles.copied}>
        {copy === 'copied' && 'Copied to the clipboard.'}
        {copy === 'failed' && 'Could not copy: select it and copy it by hand.'}
      </p>
      <Button onClick={onDone}>I have saved it</Button>
    </section>
  );
}
