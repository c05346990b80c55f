import net from 'node:net';

export interface StatementCounter {
  /** postgres:// URL that reaches the database through the counter. */
  url: string;
  /** Statements sent since the last reset, in order; each Execute or simple Query is one. */
  take(): string[];
  /** Client connections open through the counter now. */
  connections(): number;
  close(): Promise<void>;
}

// Untyped first messages of a connection: SSL and GSS encryption requests come before the startup message.
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/**
 * A TCP proxy in front of PostgreSQL that reads the client side of the wire
 * protocol and counts statements: a simple Query ('Q') is one, and so is each
 * Execute ('E') of the extended protocol, whose SQL is the last Parse ('P') seen
 * on that connection (unnamed statements, as node-postgres and Prisma's adapter
 * send them). Bytes are forwarded untouched, so the server under test needs no
 * instrumentation; only the counting run goes through it. It also tells how many
 * connections a client holds open through it, whatever they name themselves.
 */
export async function startStatementCounter(databaseUrl: string): Promise<StatementCounter> {
  const target = new URL(databaseUrl);
  let statements: string[] = [];
  const sockets = new Set<net.Socket>();
  const clients = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    clients.add(client);
    let lastParsed = '';
    const reader = messageReader((type, payload) => {
      if (type === 'P') lastParsed = parseText(payload);
      else if (type === 'E') statements.push(lastParsed);
      else if (type === 'Q') statements.push(cString(payload, 0));
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

/** Parse: statement name, then the SQL text, both NUL-terminated. */
function parseText(payload: Buffer): string {
  const nameEnd = payload.indexOf(0);
  return cString(payload, nameEnd + 1);
}

function cString(payload: Buffer, start: number): string {
  const end = payload.indexOf(0, start);
  return payload.toString('utf8', start, end === -1 ? payload.length : end);
}
