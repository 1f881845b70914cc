import { rmSync } from 'node:fs';
import { AppModule } from '../../apps/api/src/app.module';
import { loadConfig } from '../../apps/api/src/config/app-config';
import { buildOpenApiDocument, type OpenApiDocument } from '../../apps/api/src/openapi/document';
import { checkRecordedAnswers } from './recorded-answers';

/**
 * Documented routes no e2e suite calls through the recording clients (test/support/test-app.ts
 * `Client`, test/support/sse.ts), each with its reason. Keep this list short.
 */
export const NOT_CALLED_BY_E2E: Record<string, string> = {};

/** The document as the service serves it, built in-process from the module tree (no database). */
export function apiDocument(): OpenApiDocument {
  return buildOpenApiDocument(apiModule());
}

/** The app's module tree as the document reads it (no database is opened). */
export const apiModule = () => AppModule.forRoot({ config: loadConfig({ DATABASE_URL: 'postgres://unused/unused' }), dataSource: null as never, lanes: null as never });

/**
 * The contract check that follows a Jest run (global-teardown.js): every answer the e2e suites
 * recorded must match the document's schema for its route and status; after a whole run every
 * documented route must have been called. Throws one message listing every mismatch.
 */
export function runContractCheck(dir: string, options: { coverage: boolean }): string {
  const document = apiDocument();
  const report = checkRecordedAnswers(document, dir);
  const problems = [...report.failures];
  if (options.coverage) {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        if (!report.called.has(name) && !(name in NOT_CALLED_BY_E2E)) problems.push(`${name}: documented, but no e2e test calls it (call it, or list it in NOT_CALLED_BY_E2E with a reason)`);
      }
    }
    for (const name of Object.keys(NOT_CALLED_BY_E2E)) {
      if (report.called.has(name)) problems.push(`${name}: listed in NOT_CALLED_BY_E2E but an e2e test calls it; take it off the list`);
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `Contract check (test/contract): ${problems.length} answer(s) of the service differ from the API document ` +
        `(apps/api/src/openapi):\n  ${problems.join('\n  ')}`,
    );
  }
  return `Contract check: ${report.answers} recorded answers of ${report.called.size} routes match the API document.`;
}

/**
 * Run after Jest (global-teardown.js starts this file in a Node process of its own, through
 * scripts/ts-register.js): `whole` says the run held every test, so coverage is checked too.
 */
if (require.main === module) {
  const dir = process.argv[2];
  try {
    process.stdout.write(`${runContractCheck(dir, { coverage: process.argv[3] === 'whole' || process.env.CONTRACT_COVERAGE === '1' })}\n`);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    if (process.env.CONTRACT_RECORD_OWNED === '1') rmSync(dir, { recursive: true, force: true });
  }
}
