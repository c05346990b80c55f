import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { curlLine, keyCreateCommand } from '../../server/seed/welcome';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const GUIDE = readdirSync(path.join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const PAGES = ['README.md', ...GUIDE];

/**
 * Each shell command README.md gives a newcomer, with the file that runs it and what in that
 * file shows it does. A command added to the README fails the test below until it is listed
 * here with the test that runs it.
 */
const NEWCOMER_COMMANDS: Record<string, { file: string; shows: string[] }> = {
  // The launcher `npm run dev` runs (package.json: tsx server/launch/dev.ts), on a fresh data folder.
  'npm install && npm run dev': { file: 'tests/launch/first-hour.test.ts', shows: ["launch('dev')", '`server/launch/${script}.ts`'] },
  // CI walks a newcomer's path: a clean clone, npm install, the suite on the embedded defaults.
  'npm install && npm test': { file: '.ci/run', shows: ['npm install --no-audit --no-fund', ' npm test\n'] },
  // The line the first start prints (server/seed/welcome.ts), read by bash and zsh.
  [curlLine('http://localhost:3000', 'tk_…', 'web')]: { file: 'tests/launch/first-hour.test.ts', shows: ["lineWith(firstStart, 'curl ')"] },
  // The line every start prints, run with --json.
  [keyCreateCommand('demo')]: {
    file: 'tests/launch/first-hour.test.ts',
    shows: ["lineWith(secondStart, 'npm run --silent admin -- key create')"],
  },
};

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'zsh', 'shell', 'console']);

const parsed = new Map<string, Root>();
function parse(file: string): Root {
  let tree = parsed.get(file);
  if (!tree) parsed.set(file, (tree = fromMarkdown(read(file), { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })));
  return tree;
}

function* walk(node: Nodes): Generator<Nodes> {
  yield node;
  if ('children' in node) for (const child of node.children) yield* walk(child);
}

/** The anchors GitHub gives a page's headings. */
function anchors(file: string): Set<string> {
  const slugger = new GithubSlugger();
  return new Set([...walk(parse(file))].filter((node) => node.type === 'heading').map((heading) => slugger.slug(toString(heading))));
}

/** Every link and image target of a page, Markdown's and those of its HTML (`<img src>`, `<a href>`). */
function targets(file: string): string[] {
  const found: string[] = [];
  for (const node of walk(parse(file))) {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') found.push(node.url);
    if (node.type === 'html') for (const match of node.value.matchAll(/\b(?:src|href)="([^"]*)"/g)) found.push(match[1]!);
  }
  return found;
}

/** The commands of a page's shell blocks: comments dropped, continued lines joined. */
function shellCommands(file: string): string[] {
  const commands: string[] = [];
  for (const node of walk(parse(file))) {
    if (node.type !== 'code' || !SHELL_LANGUAGES.has(node.lang ?? '')) continue;
    const joined = node.value.replace(/\\\n\s*/g, '');
    for (const line of joined.split('\n')) {
      const command = line.replace(/\s+#\s.*$/, '').trim();
      if (command && !command.startsWith('#')) commands.push(command);
    }
  }
  return commands;
}

describe('README.md, the front door', () => {
  it('has at most 250 lines', () => {
    expect(read('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('names the language of every fenced block, so no command hides in an unmarked one', () => {
    const unmarked = [...walk(parse('README.md'))].filter((node) => node.type === 'code' && !node.lang);
    expect(unmarked.map((node) => node.position?.start.line)).toEqual([]);
  });

  it('gives only commands a test runs, and each listed command is still in it', () => {
    const commands = shellCommands('README.md');
    expect(commands.filter((command) => !(command in NEWCOMER_COMMANDS))).toEqual([]);
    expect(Object.keys(NEWCOMER_COMMANDS).filter((command) => !commands.includes(command))).toEqual([]);
  });

  it.each(Object.entries(NEWCOMER_COMMANDS))('%s: is run by the file listed', (_, { file, shows }) => {
    const source = read(file);
    for (const sign of shows) expect(source, `${file} runs it`).toContain(sign);
  });

  it('names only npm scripts that exist', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const named = shellCommands('README.md').flatMap((command) =>
      [...command.matchAll(/\bnpm (?:run (?:--silent )?([\w:-]+)|(test|start))\b/g)].map((match) => match[1] ?? match[2]!),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((script) => !(script in scripts))).toEqual([]);
    expect(scripts.dev).toBe('tsx server/launch/dev.ts');
  });

  it('links every page of the guide', () => {
    const linked = new Set(targets('README.md').map((target) => target.split('#')[0]));
    expect(GUIDE.filter((page) => !linked.has(page))).toEqual([]);
  });
});

describe.each(PAGES)('%s', (file) => {
  it('has no dead relative link and no missing anchor', () => {
    const dead: string[] = [];
    for (const target of targets(file)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [pathPart = '', anchor] = target.split('#');
      const resolved = pathPart ? path.posix.join(path.posix.dirname(file), decodeURIComponent(pathPart)) : file;
      if (resolved.startsWith('..') || !existsSync(path.join(root, resolved))) {
        dead.push(`${target}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!resolved.endsWith('.md') || statSync(path.join(root, resolved)).isDirectory())
        dead.push(`${target}: an anchor into a file that has no headings`);
      else if (!anchors(resolved).has(anchor)) dead.push(`${target}: ${resolved} has no heading with that anchor`);
    }
    expect(dead).toEqual([]);
  });
});

describe.each(PAGES)('%s', (file) => {
  it('names in code only files of the repository that exist', () => {
    const named = [...walk(parse(file))]
      .filter((node) => node.type === 'inlineCode')
      .map((node) => node.value)
      .filter((value) => /^(?:server|app|tests|prisma|client|docs|\.ci)\/[\w./[\]-]*\.\w+$/.test(value));
    expect(named.filter((name) => !existsSync(path.join(root, name)))).toEqual([]);
  });
});

describe.each(GUIDE)('%s', (file) => {
  it('opens with who it is for and what it answers', () => {
    const [title, opening] = parse(file).children;
    expect(title?.type === 'heading' && title.depth).toBe(1);
    expect(opening?.type).toBe('paragraph');
    const strong =
      opening?.type === 'paragraph' ? opening.children.filter((node) => node.type === 'strong').map((node) => toString(node)) : [];
    expect(strong.slice(0, 2)).toEqual(['For', 'Answers']);
  });
});

describe('docs/configuration.md', () => {
  /** The variable names in the first column of the page's one table. */
  function documented(): Set<string> {
    const tables = parse('docs/configuration.md').children.filter((node) => node.type === 'table');
    expect(tables).toHaveLength(1);
    const [, ...rows] = tables[0]!.type === 'table' ? tables[0]!.children : [];
    return new Set(rows.flatMap((row) => [...toString(row.children[0]!).matchAll(/[A-Z][A-Z0-9_]+/g)].map((match) => match[0])));
  }

  function sourceFiles(folder: string): string[] {
    return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(ts|tsx|mjs)$/.test(name) && !name.includes('generated'))
      .map((name) => path.join(folder, name));
  }

  it('names every variable server/env.ts parses', () => {
    const variables = [...read('server/env.ts').matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!);
    expect(variables.length).toBeGreaterThan(20);
    expect(variables.filter((name) => !documented().has(name))).toEqual([]);
  });

  it('names every variable of .env.example', () => {
    const listed = [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.filter((name) => !documented().has(name))).toEqual([]);
  });

  it('names every variable the app, its build and Prisma read from process.env', () => {
    const files = [...sourceFiles('server'), ...sourceFiles('app'), ...sourceFiles('prisma'), 'next.config.mjs'];
    const names = files.flatMap((file) => [...read(file).matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)].map((match) => match[1]!));
    expect(names.length).toBeGreaterThan(0);
    expect([...new Set(names)].filter((name) => !documented().has(name))).toEqual([]);
  });
});
