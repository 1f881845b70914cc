#!/usr/bin/env node
'use strict';
// The `board-agent` command (package.json `bin`): runs the TypeScript sources of apps/agent as they
// are, so it works straight after `npm ci` with no build step. Each .ts file is compiled on load with
// @swc/core (installed by npm ci; the test runner uses it too), and `@board/<lib>` resolves to
// libs/<lib>/src like the tsconfig paths. Compiling the few files takes milliseconds.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const root = path.resolve(__dirname, '..', '..', '..');
let swc;
try {
  swc = require('@swc/core');
} catch {
  process.stderr.write('board-agent: @swc/core is missing; run `npm ci` in the repository first.\n');
  process.exit(1);
}

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const lib = /^@board\/([a-z-]+)$/.exec(request);
  return resolve.call(this, lib ? path.join(root, 'libs', lib[1], 'src') : request, parent, ...rest);
};

require.extensions['.ts'] = function compile(module, filename) {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    sourceMaps: 'inline',
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

require('../src/main.ts')
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
    // Open sockets of an ended stream must not hold the answer back.
    setTimeout(() => process.exit(code), 2000).unref();
  });
