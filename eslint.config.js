import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

/**
 * Layers, enforced: dependencies point one way (routes → gateway, trpc, realtime → domain →
 * repositories, engine, config). Each rule is a regex on the import path, so `$lib/server/x`
 * aliases and relative `../../x` paths are caught alike. Several blocks may match one file
 * and the last one's options replace the others', so every block repeats what it inherits
 * (`notRoutes` for everything in src/lib).
 */
/** @param {...string} names */
const segment = (...names) => `(^|/)(${names.join('|')})(/|$)`;
/** @param {string} regex @param {string} message @param {{ allowTypeImports?: boolean }} [extra] */
const rule = (regex, message, extra = {}) => ({ regex, message, ...extra });
const notRoutes = rule(
  '(^|/)routes/|(^|/)\\+(page|layout|server)',
  'src/lib never imports from src/routes: move what both need into src/lib.'
);
const noStorage = rule(
  '(^|/)db/(repositories|schema)(/|$)|(^|/)db/client$',
  'Adapters reach storage only through the domain (a service in src/lib/server/domain).'
);
/** @param {string} layer @param {...string} names */
const above = (layer, ...names) =>
  rule(
    segment(...names),
    `${layer} must not import ${names.join(', ')}: dependencies point one way (house-style.md).`
  );
/** @param {{ allowTypeImports?: boolean }} [extra] */
const noServer = (extra) =>
  rule(
    '^\\$lib/server(/|$)|^(\\.\\.?/)+(lib/)?server(/|$)',
    'Client code (components, state, pages) never imports $lib/server: use tRPC or load data.',
    extra
  );
/** @param {string[]} files @param {...ReturnType<typeof rule>} patterns */
const layer = (files, ...patterns) => ({
  files,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] }
});

export default ts.config(
  {
    ignores: [
      'build/',
      '.svelte-kit/',
      '.tools/',
      'node_modules/',
      'drizzle/',
      'test-results/',
      'playwright-report/'
    ]
  },
  js.configs.recommended,
  ...ts.configs.recommendedTypeChecked,
  ...svelte.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'svelte.config.js'] },
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte']
      }
    }
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser, svelteConfig } }
  },
  {
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }
      ],
      'no-console': ['error', { allow: ['error'] }],
      // SvelteKit's redirect() and error() throw by design.
      '@typescript-eslint/only-throw-error': 'off',
      'svelte/no-navigation-without-resolve': 'off'
    }
  },
  layer(['src/lib/**'], notRoutes),
  layer(['src/routes/**', 'src/hooks.server.ts'], noStorage),
  layer(
    ['src/lib/server/domain/**'],
    notRoutes,
    rule(
      '^(@sveltejs/|\\$app/|@trpc/|socket\\.io(-client)?(/|$)|ws$|(node:)?https?2?$)',
      'Domain code is framework-free: no SvelteKit, tRPC, socket.io, ws or node:http.'
    ),
    above('The domain', 'gateway', 'realtime', 'trpc', 'http')
  ),
  layer(
    ['src/lib/server/gateway/**'],
    notRoutes,
    noStorage,
    above('The gateway', 'trpc', 'realtime')
  ),
  layer(['src/lib/server/console/**'], notRoutes, noStorage),
  layer(['src/lib/server/trpc/**'], notRoutes, noStorage, above('tRPC', 'gateway', 'realtime')),
  layer(['src/lib/server/realtime/**'], notRoutes, noStorage, above('Realtime', 'gateway', 'trpc')),
  layer(
    ['src/lib/server/http/**'],
    notRoutes,
    noStorage,
    above('HTTP plumbing', 'domain', 'gateway', 'trpc', 'realtime')
  ),
  layer(
    ['src/lib/server/engine/**'],
    notRoutes,
    above('The engine client', 'domain', 'gateway', 'trpc', 'realtime', 'http', 'db')
  ),
  layer(
    ['src/lib/server/db/**'],
    notRoutes,
    above('Storage', 'domain', 'gateway', 'trpc', 'realtime', 'http', 'engine')
  ),
  layer(
    ['src/lib/server/config/**'],
    notRoutes,
    above('Configuration', 'domain', 'gateway', 'trpc', 'realtime', 'http', 'db', 'engine')
  ),
  layer(
    [
      'src/lib/components/**',
      'src/lib/state/**',
      'src/lib/contracts/**',
      'src/lib/webhooks/**',
      'src/lib/chat/**'
    ],
    notRoutes,
    noServer()
  ),
  // The build-file parser and model run in Node (server, CLI) and in the browser alike.
  {
    ...layer(
      ['src/lib/buildfile/**'],
      notRoutes,
      noServer(),
      rule(
        '^node:|^(fs|path|os|url|util|stream|buffer|crypto|child_process|process|events)(/|$)',
        'src/lib/buildfile runs in Node and in the browser: no Node modules.'
      )
    ),
    ignores: ['src/lib/buildfile/**/*.test.ts']
  },
  {
    files: ['src/lib/buildfile/**'],
    ignores: ['src/lib/buildfile/**/*.test.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'self', 'localStorage', 'sessionStorage'],
        ...['HTMLElement', 'Element', 'process', 'Buffer', 'require', '__dirname', '__filename']
      ]
    }
  },
  // The tRPC client needs the router's type; a type import leaves nothing in the bundle.
  layer(['src/lib/client/**'], notRoutes, noServer({ allowTypeImports: true })),
  layer(
    ['src/routes/**/*.svelte', 'src/routes/**/+page.ts', 'src/routes/**/+layout.ts'],
    noServer()
  ),
  {
    files: ['tests/**', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' }
  }
);
