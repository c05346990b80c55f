import tseslint from 'typescript-eslint';

const DOMAIN = [
  'tasks',
  'comments',
  'lookups',
  'attachments',
  'projects',
  'keys',
  'workspaces',
  'storage',
  'ratelimit',
  'auth',
  'setup',
  'idempotency',
  'webhooks',
  'retention',
  'audit',
  'request-log',
  'usage',
];

/** Files under `files` may not import from the server folders named in `above`. */
function layer(files, above) {
  const group = above.flatMap((folder) => [`**/${folder}/*`, `**/server/${folder}/*`]);
  return [
    {
      files,
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [{ group, message: 'Layers point one way: app → server/http → server/api → domain → server/db.' }] },
        ],
      },
    },
  ];
}

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
  // Layers point one way: app → server/http → server/mcp → server/api → domain folders → server/schemas → server/db.
  ...layer(['server/db/**', 'server/vendor/**'], ['api', 'http', 'mcp', 'settings', 'launch', 'admin', 'seed', 'schemas', ...DOMAIN]),
  ...layer(['server/schemas/**'], ['api', 'http', 'mcp', 'settings', 'launch', 'admin', 'seed', ...DOMAIN]),
  ...layer(
    DOMAIN.map((folder) => `server/${folder}/**`),
    ['api', 'http', 'mcp', 'launch', 'admin'],
  ),
  ...layer(['server/api/**'], ['http', 'mcp', 'settings', 'launch', 'admin']),
  ...layer(['server/mcp/**'], ['http', 'settings', 'launch', 'admin']),
  ...layer(['server/settings/**'], ['http', 'launch', 'admin']),
  ...layer(['server/http/**'], ['launch', 'admin']),
);
