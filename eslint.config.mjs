import path from 'node:path';
import tseslint from 'typescript-eslint';

/**
 * The layers of server/, bottom to top: each folder (or module at server/'s top) imports only
 * those before it, so none imports one above it and no two import each other, even through
 * others. The one place the order is written; docs/architecture.md (Layers) describes it.
 */
const LAYERS = [
  'env',
  'log',
  'errors',
  'app-secret',
  'vendor',
  'db',
  'schemas',
  'storage',
  'ratelimit',
  'idempotency',
  // The queue of webhook deliveries a change writes into, the audit log's events and webhooks' alike.
  'outbox',
  'audit',
  'workspaces',
  'projects',
  'keys',
  'auth',
  'oauth',
  'webhooks',
  'tasks',
  'comments',
  'lookups',
  'attachments',
  'usage',
  'request-log',
  // Scheduled work, above what it runs: the purge calls into each domain's own part of it.
  'retention',
  'jobs',
  'seed',
  'setup',
  'api',
  'mcp',
  'settings',
  'http',
  'launch',
  'admin',
];

const root = import.meta.dirname;
const server = path.join(root, 'server');

/** The layer a path under server/ is in: its folder, or a top-level module's name; null outside server/. */
function layerOf(file) {
  const [first, ...rest] = path.relative(server, file).split(path.sep);
  if (first === '..' || path.isAbsolute(first)) return null;
  return rest.length > 0 ? first : first.replace(/\.[cm]?[jt]sx?$/, '');
}

/** The path an import names, `@/` being the root (tsconfig.json's paths); null for a package. */
function target(specifier, filename) {
  if (specifier.startsWith('@/')) return path.join(root, specifier.slice(2));
  if (specifier.startsWith('.')) return path.resolve(path.dirname(filename), specifier);
  return null;
}

const oneWay = {
  meta: {
    type: 'problem',
    messages: {
      upward:
        'server/{{from}} may not import server/{{to}}: {{to}} is above it in the layers (LAYERS in eslint.config.mjs), which point one way, bottom to top.',
      unlisted: 'server/{{folder}} is in no layer: add it to LAYERS in eslint.config.mjs, above what it imports and below what imports it.',
      app: 'server/ may not import app/: app/ hands each request over to server/, never the other way.',
    },
  },
  create(context) {
    const from = layerOf(context.filename);
    if (from === null) return {};
    const rank = (layer) => LAYERS.indexOf(layer);
    if (rank(from) < 0) return { Program: (node) => context.report({ node, messageId: 'unlisted', data: { folder: from } }) };
    const check = (source) => {
      const specifier =
        source?.type === 'Literal'
          ? source.value
          : source?.type === 'TemplateLiteral' && source.quasis.length === 1
            ? source.quasis[0].value.cooked
            : null;
      if (typeof specifier !== 'string') return;
      const file = target(specifier, context.filename);
      if (file === null) return;
      const to = layerOf(file);
      if (to === null) {
        if (path.relative(root, file).split(path.sep)[0] === 'app') context.report({ node: source, messageId: 'app' });
        return;
      }
      if (to === from) return;
      if (rank(to) < 0) context.report({ node: source, messageId: 'unlisted', data: { folder: to } });
      else if (rank(to) > rank(from)) context.report({ node: source, messageId: 'upward', data: { from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportEqualsDeclaration: (node) => check(node.moduleReference.expression),
      TSImportType: (node) => check(node.argument?.literal ?? node.source),
      'CallExpression[callee.name="require"]': (node) => check(node.arguments[0]),
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.next/',
      '.data/',
      '.scratch/',
      'server/db/generated/',
      'next-env.d.ts',
      'tests/bench/results/',
      'client/dist/',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // Layers point one way: app → server/http → server/api, server/mcp, server/settings → the domain folders → server/db.
  {
    files: ['server/**'],
    plugins: { layers: { rules: { 'one-way': oneWay } } },
    rules: { 'layers/one-way': 'error' },
  },
);
