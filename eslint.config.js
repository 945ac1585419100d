// @ts-check
import tseslint from 'typescript-eslint';

/** Import direction: core/common ← core/node ← electron; core/common ← renderer. A violation fails `npm test`. */
const nodeBuiltins = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'worker_threads',
  'crypto',
  'http',
  'https',
  'net',
  'stream',
  'url',
  'util',
  'events',
  'zlib',
  'buffer',
  'process',
];

const restrict = (groups, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }],
});

export default tseslint.config(
  { ignores: ['node_modules/**', '.bench/**', '.tsbuild/**', 'dist/**', 'out/**', 'release/**', '**/*.d.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['core/common/**/*.ts'],
    rules: restrict(
      [...nodeBuiltins, 'electron', 'electron/*', 'react', 'react-dom', 'react/*', '**/core/node/**', '**/renderer/**', '**/electron/**'],
      'core/common is pure TypeScript: no Node, DOM, electron or react, and nothing from core/node, renderer or electron.',
    ),
  },
  {
    files: ['core/node/**/*.ts'],
    rules: restrict(
      ['electron', 'electron/*', 'react', 'react-dom', '**/renderer/**', '**/electron/**'],
      'core/node may import core/common and Node, never electron, react or the renderer.',
    ),
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: restrict(
      [...nodeBuiltins, 'electron', 'electron/*', '**/core/node/**', '**/electron/**'],
      'The renderer talks only to the contract client (core/common); no Node, electron or core/node.',
    ),
  },
  {
    files: [
      'electron/policy/**/*.ts',
      'electron/preload/aloudBridge.ts',
      'electron/main/appRequests.ts',
      'electron/main/ipcCalls.ts',
      'electron/main/startupProject.ts',
    ],
    rules: restrict(
      ['electron', 'electron/*', 'react', 'react-dom', '**/renderer/**'],
      'The shell holds no logic: policy and handlers are plain functions tested in Node, without electron.',
    ),
  },
);
