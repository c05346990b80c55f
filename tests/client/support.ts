import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess, type CliResult } from '../support/cli';
import { PATIENCE_MS } from '../support/patience';

export const CLIENT = fileURLToPath(new URL('../../client/', import.meta.url));
export const CLI = path.join(CLIENT, 'dist/cli/main.js');
const npm = 'npm';

/** `npm pack` in client/, as a publisher runs it: its prepack builds dist/, which the tests of the command line and the browser use too. */
export async function packClient(): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-pack-'));
  const packed = await runProcess<{ filename: string }[]>(npm, ['pack', '--json', '--pack-destination', folder], { cwd: CLIENT });
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  return path.join(folder, packed.json[0]!.filename);
}

/** An empty folder with nothing but the tarball installed in it, as a consumer's project; npm asks no registry. */
export async function installTarball(tarball: string): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-consumer-'));
  await fs.writeFile(path.join(folder, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const installed = await runProcess(npm, ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: folder });
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed:\n${installed.stderr}`);
  return folder;
}

/** The command line as built into client/dist, in a child process. */
export function runCli<T = unknown>(args: string[], env: Record<string, string | undefined>, stdin = ''): Promise<CliResult<T>> {
  return runProcess<T>(process.execPath, [CLI, ...args], { env, stdin });
}

/**
 * A command run at a terminal (a pseudo-terminal of util-linux's `script`), with
 * `answer` typed once `prompt` has appeared, as a person types after a prompt.
 * Resolves with everything the terminal showed.
 */
export function runAtTerminal(command: string[], env: Record<string, string>, prompt: string, answer: string) {
  const quoted = command.map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let typed = false;
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    if (!typed && screen.includes(prompt)) {
      typed = true;
      child.stdin.write(answer);
    }
  });
  return new Promise<{ code: number | null; screen: string }>((resolve) => {
    const timer = setTimeout(() => child.kill(), PATIENCE_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

/** Serves a folder's files, and an empty page at `/`, on a loopback port: another origin than the API's, as a web app calling it. */
export async function serveFolder(root: string) {
  const types: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html' };
  const server = http.createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>A web app</title>');
    const file = path.join(root, pathname);
    const body = file.startsWith(root) ? await fs.readFile(file).catch(() => undefined) : undefined;
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A TCP proxy to `target` that, for the first request whose bytes hold `marker`,
 * passes the request on, waits for the server's answer to begin, and then closes
 * the client's connection without a byte of it: the request was processed, its
 * answer lost, as when a connection drops at the worst moment.
 */
export async function startDroppingProxy(target: URL, marker: string) {
  let dropped = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    let dropThis = false;
    client.on('data', (chunk) => {
      if (!dropped && chunk.includes(marker)) dropped = dropThis = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (dropThis) {
        client.destroy();
        upstream.destroy();
      } else client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    dropped: () => dropped,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type ScriptedAnswer = { status: number; headers?: Record<string, string>; body?: unknown } | 'no answer';

/**
 * An HTTP server that answers its requests, in order, with the answers given (`no answer`:
 * it keeps the request open and says nothing), then 404: what a client does with each
 * kind of answer, seen without a production server's timing.
 */
export async function startScriptedServer(answers: ScriptedAnswer[]) {
  const requests: { method: string; path: string; idempotencyKey: string | undefined }[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method!, path: req.url!, idempotencyKey: req.headers['idempotency-key'] as string | undefined });
    req.resume();
    const answer = answers.shift() ?? { status: 404, body: { statusCode: 404, message: 'Not found' } };
    if (answer === 'no answer') return;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body ?? {}));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1/public`,
    requests,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A README's code blocks in a language (the client's by default), each with the heading it sits under. */
export async function readmeBlocks(
  language: string,
  readme = path.join(CLIENT, 'README.md'),
): Promise<{ heading: string; code: string }[]> {
  const text = await fs.readFile(readme, 'utf8');
  const blocks: { heading: string; code: string }[] = [];
  let heading = '';
  for (const part of text.split(/^```/m).entries()) {
    const [index, chunk] = part;
    if (index % 2 === 0) {
      heading = [...chunk.matchAll(/^#+ (.+)$/gm)].at(-1)?.[1] ?? heading;
    } else if (chunk.startsWith(`${language}\n`)) {
      blocks.push({ heading, code: chunk.slice(language.length + 1) });
    }
  }
  return blocks;
}
