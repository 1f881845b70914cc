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
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': swc,
    // @fastify/static (the board page) brings ES-module-only helpers (content-disposition, glob):
    // Jest's CommonJS runtime needs them compiled like the TypeScript.
    '^.+/@fastify/static/node_modules/.+\\.js$': swc,
  },
  transformIgnorePatterns: ['^(?!.*/@fastify/static/node_modules/).*/node_modules/'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/test/**/*.test.ts'],
  moduleNameMapper: {
    '^@board/([a-z-]+)$': '<rootDir>/libs/$1/src',
  },
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  testTimeout: 30000,
};
