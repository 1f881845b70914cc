// One Jest run holds every kind of test: domain unit tests beside the code (libs/**),
// adapter integration tests and HTTP end-to-end tests (test/**) against a real PostgreSQL.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];
// Packages published as ES modules only, which Jest's CommonJS runtime needs compiled like the
// TypeScript (Node itself requires them: require(esm), Node 20.19 and later): @fastify/static's
// helpers (content-disposition, glob; the board page), and openid-client with its own (single sign-on).
const ES_MODULES_ONLY = ['@fastify/static/node_modules', 'openid-client', 'oauth4webapi', 'jose'].map((p) => p.replace(/[/.]/g, '\\$&')).join('|');

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': swc,
    [`^.+/node_modules/(${ES_MODULES_ONLY})/.+\\.js$`]: swc,
  },
  transformIgnorePatterns: [`^(?!.*/node_modules/(${ES_MODULES_ONLY})/).*/node_modules/`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/test/**/*.test.ts'],
  moduleNameMapper: {
    '^@board/([a-z-]+)$': '<rootDir>/libs/$1/src',
  },
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  // The suites that measure the event loop first, while the shared process's heap is small.
  testSequencer: '<rootDir>/test/support/test-sequencer.js',
  testTimeout: 30000,
};
