/**
 * How long a test waits for something it expects to happen: a server's ready line, an
 * answer, a row, a page's text. A wait ends as soon as its event comes, so the bound
 * costs nothing on a quiet machine; it is there for a machine that other work keeps
 * busy, where waits of 20 to 30 s failed at a load average of 15 on two cores. What
 * the app promises about speed is the benchmark's to measure (tests/bench), not a
 * test's wait.
 */
export const PATIENCE_MS = 120_000;

/** A test's own bound: room for several waits of PATIENCE_MS. */
export const TEST_TIMEOUT_MS = 5 * 60_000;

/** A file's setup: it may wait for `next build` and for Chromium's installation too. */
export const HOOK_TIMEOUT_MS = 10 * 60_000;
