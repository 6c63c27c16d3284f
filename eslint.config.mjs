// ESLint for the whole repository: typescript-eslint's type-checked rules (strict set) over the
// plugin, the demo server, the admin UI, the benchmark and the tests. `npm run lint` runs it.
// Every rule switched off or relaxed below says why; a single line that needs an exception says so
// in an `eslint-disable-next-line rule -- reason` comment.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'data/**', 'test-results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked with the tsconfig.json nearest to it: the root one for plugin/,
        // server/, bench/ and test/, admin-ui/tsconfig.json for the browser code.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // Not in the strict set, and the reason for type-checked linting here: a union member added
      // later (a column type, a modifier, an error code) must reach every switch over it. A
      // `default:` that hands the remaining members to a table typed by them counts as handling them.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Numbers are written into messages and SQL placeholders on purpose (`LIMIT ${n}`, `${ms} ms`);
      // objects, arrays, null and undefined in a template stay errors.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `() => resolve()` and `(e) => next(e)` are one-line callbacks whose void result nobody
      // reads, and `if (bad) return problem(...)` ends a void function early (the describe and
      // validate stages are written that way). A void value used anywhere else stays an error.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true, ignoreVoidReturningFunctions: true }],
    },
  },
  {
    // The tests keep every rule but two, and only for reasons particular to tests.
    files: ['test/**/*.ts'],
    rules: {
      // supertest types a response's `body` as `any`: `expect(res.body.total).to.equal(3)` is the
      // check itself, and typing every body first would only restate the assertion.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      // A `!` in a test states what the test has just set up; when it is wrong the test fails with a
      // TypeError, which is what a wrong expectation should do.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `let app: TestApp;` assigned in a `before` hook is typed as always there, but an `after` hook
      // runs when `before` failed too, and its `app?.close()` must not hide that failure behind a
      // TypeError. The same holds for handles read after a child process may have failed to start.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // chai's property assertions (`expect(list).to.be.empty`) are expressions by design.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
  {
    // Files outside both tsconfig projects: the configuration files and the host applications the
    // install tests copy next to the packed tarball. Those hosts import `koa-query-modifiers` as a
    // consumer does, which only resolves once the tarball is installed; the install tests type-check
    // them there with the host's own tsconfig, so here they get the rules that need no types. The
    // typed client imports the types the install test generates from the document, likewise.
    files: [
      '**/*.mjs',
      'admin-ui/vite.config.ts',
      'test/ecosystem/install/host-app*/**',
      'test/ecosystem/install/host-shared/**',
      'test/ecosystem/install/typed-client/**',
    ],
    ...tseslint.configs.disableTypeChecked,
  },
);
