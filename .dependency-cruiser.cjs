/**
 * The dependency rule (checked by test/architecture/dependency-rule.test.ts inside `npm test`):
 * domain code — every libs/* except the infrastructure libs `persistence` and `platform` — stays
 * pure. It may import other domain libs, Node's own non-network modules and small pure helpers,
 * but never a framework, a driver, a network client or an infrastructure lib.
 */
const INFRASTRUCTURE_LIBS = ['persistence', 'platform'];

// Bare packages and their subpaths, whether resolved into node_modules or left unresolved.
const FORBIDDEN_PACKAGES = ['@nestjs/[^/]+', '@aws-sdk/[^/]+', 'typeorm', 'pg', 'fastify', 'argon2', 'nodemailer', 'prom-client', 'pino', 'openid-client'];
const pkg = (name) => `(^|/node_modules/|^node_modules/)${name}(/|$)`;

module.exports = {
  forbidden: [
    {
      name: 'domain-stays-pure',
      comment:
        'Domain libs (libs/* except persistence and platform) must not import Nest, TypeORM, pg, AWS SDK, ' +
        'HTTP servers or clients, fastify, argon2, nodemailer, prom-client, pino, or the infrastructure libs. Put such code ' +
        'behind a port (an abstract class in the domain) with its adapter in libs/persistence or libs/platform.',
      severity: 'error',
      from: {
        path: '^libs/[^/]+/',
        pathNot: `^libs/(${INFRASTRUCTURE_LIBS.join('|')})/`,
      },
      to: {
        path: [
          ...FORBIDDEN_PACKAGES.map(pkg),
          // Node's network servers and clients, with or without the node: prefix.
          '^(node:)?https?$',
          // The infrastructure libs, by alias or by path.
          `^@board/(${INFRASTRUCTURE_LIBS.join('|')})(/|$)`,
          `(^|/)libs/(${INFRASTRUCTURE_LIBS.join('|')})/`,
        ],
      },
    },
  ],
  options: {
    // Type-only imports count too: a domain file should not even name a framework type.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|coverage|\\.data)/' },
    moduleSystems: ['cjs', 'es6'],
  },
};
