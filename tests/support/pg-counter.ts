import net from 'node:net';

/** One statement as it went over the wire: its SQL and the values bound to its parameters. */
export interface SentStatement {
  text: string;
  /** Text-format values as sent; binary ones as `\x` and hex; null for SQL NULL. */
  params: (string | null)[];
}

export interface StatementCounter {
  /** postgres:// URL that reaches the database through the counter. */
  url: string;
  /** Statements sent since the last reset, in order; each Execute or simple Query is one. */
  take(): SentStatement[];
  /** Client connections open through the counter now. */
  connections(): number;
  close(): Promise<void>;
}

// Untyped first messages of a connection: SSL and GSS encryption requests come before the startup message.
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/**
 * A TCP proxy in front of PostgreSQL that reads the client side of the wire
 * protocol and records statements: a simple Query ('Q') is one, and so is each
 * Execute ('E') of the extended protocol, with the SQL its portal was bound to
 * (Parse, 'P', named or not) and the values that Bind ('B') gave it. Bytes are
 * forwarded untouched, so the server under test needs no instrumentation; only
 * the counting run goes through it. It also tells how many connections a client
 * holds open through it, whatever they name themselves.
 */
export async function startStatementCounter(databaseUrl: string): Promise<StatementCounter> {
  const target = new URL(databaseUrl);
  let statements: SentStatement[] = [];
  const sockets = new Set<net.Socket>();
  const clients = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    clients.add(client);
    const parsed = new Map<string, string>();
    const portals = new Map<string, SentStatement>();
    const reader = messageReader((type, payload) => {
      if (type === 'P') {
        const name = cString(payload, 0);
        parsed.set(name, cString(payload, Buffer.byteLength(name) + 1));
      } else if (type === 'B') {
        const bound = readBind(payload);
        portals.set(bound.portal, { text: parsed.get(bound.statement) ?? '', params: bound.params });
      } else if (type === 'E') {
        statements.push(portals.get(cString(payload, 0)) ?? { text: '', params: [] });
      } else if (type === 'Q') {
        statements.push({ text: cString(payload, 0), params: [] });
      }
    });
    client.on('data', (chunk) => {
      reader(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
      clients.delete(client);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);

  return {
    url: url.toString(),
    take() {
      const taken = statements;
      statements = [];
      return taken;
    },
    connections: () => clients.size,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Splits a frontend byte stream into messages, however TCP chunks it. */
function messageReader(onMessage: (type: string, payload: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let startup = true;
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (startup) {
        if (pending.length < 8) return;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return;
        const code = pending.readInt32BE(4);
        startup = code === SSL_REQUEST || code === GSSENC_REQUEST;
        pending = pending.subarray(length);
        continue;
      }
      if (pending.length < 5) return;
      const length = pending.readInt32BE(1);
      if (pending.length < 1 + length) return;
      onMessage(String.fromCharCode(pending[0]!), pending.subarray(5, 1 + length));
      pending = pending.subarray(1 + length);
    }
  };
}

/**
 * Bind: portal and statement names, the parameters' format codes (none: all text;
 * one: all alike; else one each), then each value as a length (-1: NULL) and its bytes.
 */
function readBind(payload: Buffer): { portal: string; statement: string; params: (string | null)[] } {
  const portal = cString(payload, 0);
  let at = Buffer.byteLength(portal) + 1;
  const statement = cString(payload, at);
  at += Buffer.byteLength(statement) + 1;
  const formats: number[] = [];
  const formatCount = payload.readInt16BE(at);
  at += 2;
  for (let i = 0; i < formatCount; i++, at += 2) formats.push(payload.readInt16BE(at));
  const paramCount = payload.readInt16BE(at);
  at += 2;
  const params: (string | null)[] = [];
  for (let i = 0; i < paramCount; i++) {
    const length = payload.readInt32BE(at);
    at += 4;
    if (length < 0) {
      params.push(null);
      continue;
    }
    const value = payload.subarray(at, at + length);
    at += length;
    const binary = (formats.length === 1 ? formats[0] : formats[i]) === 1;
    params.push(binary ? `\\x${value.toString('hex')}` : value.toString('utf8'));
  }
  return { portal, statement, params };
}

function cString(payload: Buffer, start: number): string {
  const end = payload.indexOf(0, start);
  return payload.toString('utf8', start, end === -1 ? payload.length : end);
}
