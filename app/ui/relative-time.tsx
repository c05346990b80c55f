'use client';

import { useSyncExternalStore } from 'react';
import { exactLocal, exactUtc, relativeTime } from './time-format';

// One clock for every time on the page: it ticks while any is shown, so "3 minutes ago" stays true.
const TICK_MS = 30_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((notify) => notify());
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * A moment as the reader thinks of it: relative ("3 minutes ago"), with the exact
 * time in their zone on hover. The server does not know that zone, so it renders
 * the exact UTC time; the browser hydrates that same text (React uses the server's
 * snapshot while hydrating) and then shows the relative one.
 */
export function RelativeTime({ iso }: { iso: string }) {
  const current = useSyncExternalStore(
    subscribe,
    () => now,
    () => null,
  );
  if (current === null) {
    return (
      <time dateTime={iso} title={`${exactUtc(iso)} (${iso})`}>
        {exactUtc(iso)}
      </time>
    );
  }
  return (
    <time dateTime={iso} title={exactLocal(iso)}>
      {relativeTime(iso, current)}
    </time>
  );
}
