/**
 * The dependency rule: domain libraries stay free of frameworks, drivers, network clients and the
 * infrastructure libs. dependency-cruiser checks it with the rules in .dependency-cruiser.cjs.
 *
 * dependency-cruiser is an ES module, and Jest (CommonJS, no --experimental-vm-modules) cannot
 * `import()` it inside a test, so the test runs its command line in a child process and reads
 * the JSON report.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** Domain libraries, checked as soon as they exist. Any other libs/* folder counts as domain too. */
const DOMAIN_LIBS = ['kernel', 'accounts', 'projects', 'tasks', 'runs', 'views', 'filters', 'webhooks', 'imports', 'files'];
/** The only libs allowed to touch the database, the network and native code. */
const INFRASTRUCTURE_LIBS = ['persistence', 'platform'];
/** These must exist: a rule that cruises nothing would pass for the wrong reason. */
const REQUIRED_DOMAIN_LIBS = ['kernel', 'accounts', 'projects'];

const ROOT = resolve(__dirname, '..', '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const CLI = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

interface CruiseReport {
  modules: { source: string; dependencies: { module: string; resolved: string }[] }[];
  summary: { violations: Violation[]; totalCruised: number; error: number };
}

/** Runs dependency-cruiser over `targets` (relative to `cwd`) with the repository's rules. */
function cruise(cwd: string, targets: string[]): CruiseReport {
  const run = spawnSync(process.execPath, [CLI, '--config', CONFIG, '--output-type', 'json', ...targets], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  try {
    return JSON.parse(run.stdout) as CruiseReport;
  } catch {
    throw new Error(`dependency-cruiser did not answer JSON (exit ${run.status}):\n${run.stderr}\n${run.stdout.slice(0, 2000)}`);
  }
}

const describeViolations = (violations: Violation[]): string[] => violations.map((v) => `${v.from} -> ${v.to} (${v.rule.name})`);

/** Domain lib folders in the repository: the listed ones that exist plus any other non-infrastructure libs/*. */
function domainLibDirs(): string[] {
  const libs = join(ROOT, 'libs');
  const present = readdirSync(libs).filter((name) => statSync(join(libs, name)).isDirectory());
  return present.filter((name) => !INFRASTRUCTURE_LIBS.includes(name)).sort().map((name) => `libs/${name}`);
}

describe('dependency rule', () => {
  it('has its tools in place', () => {
    expect(existsSync(CONFIG)).toBe(true);
    expect(existsSync(CLI)).toBe(true);
  });

  it('the config forbids what the rule names, for every libs/* except the infrastructure libs', () => {
    const config = require(CONFIG);
    const rule = config.forbidden.find((r: { name: string }) => r.name === 'domain-stays-pure');
    expect(rule.severity).toBe('error');
    const from = new RegExp(rule.from.path);
    const fromNot = new RegExp(rule.from.pathNot);
    for (const lib of [...DOMAIN_LIBS, 'anything-new']) {
      expect(from.test(`libs/${lib}/src/x.ts`) && !fromNot.test(`libs/${lib}/src/x.ts`)).toBe(true);
    }
    for (const lib of INFRASTRUCTURE_LIBS) expect(fromNot.test(`libs/${lib}/src/x.ts`)).toBe(true);
    const to = (rule.to.path as string[]).map((p) => new RegExp(p));
    const forbidden = (target: string) => to.some((re) => re.test(target));
    for (const target of [
      '@nestjs/common', 'node_modules/@nestjs/core/index.js', 'typeorm', 'node_modules/typeorm/index.js', 'pg',
      'node_modules/pg/lib/index.js', '@aws-sdk/client-s3', 'http', 'https', 'node:http', 'node:https', 'fastify',
      'argon2', 'nodemailer', 'prom-client', 'pino', '@board/persistence', '@board/platform', 'libs/persistence/src/index.ts',
      'libs/platform/src/index.ts', '../../elsewhere/node_modules/argon2/argon2.cjs',
    ]) {
      if (!forbidden(target)) throw new Error(`the config lets a domain file import ${target}`);
    }
    for (const target of [
      'crypto', 'node:crypto', 'util', 'pg-promise', 'node_modules/fast-check/lib/fast-check.js', 'http2',
      '@board/kernel', 'libs/kernel/src/index.ts', 'fastify-like', 'typeorm-extra',
    ]) {
      if (forbidden(target)) throw new Error(`the config forbids ${target}, which the rule allows`);
    }
  });

  it('holds for every domain library', () => {
    const dirs = domainLibDirs();
    for (const lib of REQUIRED_DOMAIN_LIBS) expect(dirs).toContain(`libs/${lib}`);
    for (const lib of DOMAIN_LIBS.filter((name) => existsSync(join(ROOT, 'libs', name)))) expect(dirs).toContain(`libs/${lib}`);
    expect(DOMAIN_LIBS.filter((name) => INFRASTRUCTURE_LIBS.includes(name))).toEqual([]);
    expect(dirs.some((d) => INFRASTRUCTURE_LIBS.some((lib) => d === `libs/${lib}`))).toBe(false);

    const report = cruise(ROOT, dirs);
    const cruised = report.modules.map((m) => m.source);
    for (const lib of REQUIRED_DOMAIN_LIBS) {
      expect(cruised).toContain(`libs/${lib}/src/index.ts`);
    }
    expect(describeViolations(report.summary.violations)).toEqual([]);
  }, 120_000);

  describe('against a fixture with forbidden imports', () => {
    let fixture: string;

    const write = (path: string, text: string) => {
      const file = join(fixture, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    };

    beforeAll(() => {
      fixture = mkdtempSync(join(tmpdir(), 'dependency-rule-'));
      // The repository's packages, so bare imports resolve into node_modules as they do for real.
      symlinkSync(join(ROOT, 'node_modules'), join(fixture, 'node_modules'), 'dir');
      write('libs/demo/src/nest.ts', "import { Injectable } from '@nestjs/common';\nexport const a = Injectable;\n");
      write('libs/demo/src/typeorm-type.ts', "import type { DataSource } from 'typeorm';\nexport type D = DataSource;\n");
      write('libs/demo/src/pg-reexport.ts', "export { Pool } from 'pg';\n");
      write('libs/demo/src/http-require.ts', "const http = require('node:http');\nexport const h = http;\n");
      write('libs/demo/src/https-import-equals.ts', "import https = require('https');\nexport const h = https;\n");
      write('libs/demo/src/s3-dynamic.ts', "export const load = () => import('@aws-sdk/client-s3');\n");
      write('libs/demo/src/fastify.ts', "import fastify from 'fastify';\nexport const f = fastify;\n");
      write('libs/demo/src/argon2.ts', "export const load = async () => (await import('argon2')).hash;\n");
      write('libs/demo/src/mail.ts', "import * as nodemailer from 'nodemailer';\nexport const m = nodemailer;\n");
      write('libs/demo/src/alias.ts', "import { Database } from '@board/persistence';\nexport const d = Database;\n");
      write('libs/demo/src/alias-platform.ts', "export * from '@board/platform';\n");
      write('libs/demo/src/relative.ts', "import { y } from '../../persistence/src/index';\nexport const r = y;\n");
      // Allowed: Node's own non-network modules, another domain lib, a name that only starts like a forbidden one.
      write(
        'libs/demo/src/clean.ts',
        "import { createHash } from 'node:crypto';\nimport { x } from '@board/kernel';\nimport { z } from 'pg-promise';\n" +
          'export const c = [createHash, x, z];\n',
      );
      // Infrastructure may use anything.
      write('libs/persistence/src/index.ts', "import { DataSource } from 'typeorm';\nexport const y = DataSource;\n");
    });

    afterAll(() => {
      if (fixture) rmSync(fixture, { recursive: true, force: true });
    });

    it('reports every forbidden import, and nothing else', () => {
      const report = cruise(fixture, ['libs']);
      const violating = [...new Set(report.summary.violations.map((v) => v.from))].sort();
      expect(violating).toEqual(
        [
          'alias-platform.ts', 'alias.ts', 'argon2.ts', 'fastify.ts', 'http-require.ts', 'https-import-equals.ts',
          'mail.ts', 'nest.ts', 'pg-reexport.ts', 'relative.ts', 's3-dynamic.ts', 'typeorm-type.ts',
        ].map((f) => `libs/demo/src/${f}`),
      );
      expect(report.summary.violations.every((v) => v.rule.name === 'domain-stays-pure' && v.rule.severity === 'error')).toBe(true);
      expect(report.summary.error).toBe(report.summary.violations.length);
    }, 120_000);
  });
});
