// The unit specs alone (`npm run test:unit`): domain specs beside the libraries and service specs
// beside the services, through in-memory ports. No database, so none of the run-wide set-up
// (an embedded PostgreSQL, the contract check after the e2e suites): each costs more than a second.
const base = require('./jest.config');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'],
  globalSetup: undefined,
  globalTeardown: undefined,
  // Jest's default (one worker less than the cores) is one worker on a 2-core machine: every file
  // in turn. The specs share nothing, so both cores work.
  maxWorkers: '100%',
};
