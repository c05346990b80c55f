/**
 * Reads a request body as text, giving up (null) as soon as it passes `limit`
 * bytes: announced by Content-Length or seen while streaming, never buffered past it.
 */
export async function readBodyText(req: Request, limit: number): Promise<string | null> {
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!req.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    // Stop reading, but do not cancel: cancelling resets the connection before
    // the client has read the 413.
    if (size > limit) {
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
