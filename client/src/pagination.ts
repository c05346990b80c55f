interface Page {
  meta: { hasMore: boolean; nextCursor: string | null };
}

/**
 * A list call, as stripe-node's: a Promise of the first page (sent at once), which
 * `for await` walks item by item through every page, each read with the cursor of
 * the page before (`after` = `meta.nextCursor`) until `meta.hasMore` is false.
 * `pages()` walks the pages instead. The first page is read once, however used.
 */
export function pageCall(items: string, read: (after?: string) => Promise<unknown>) {
  const first = read() as Promise<Page>;
  async function* pages() {
    let page = await first;
    yield page;
    while (page.meta.hasMore && page.meta.nextCursor) {
      page = (await read(page.meta.nextCursor)) as Page;
      yield page;
    }
  }
  async function* all() {
    for await (const page of pages()) yield* (page as unknown as Record<string, unknown[]>)[items]!;
  }
  return Object.assign(first, { pages, [Symbol.asyncIterator]: all });
}
