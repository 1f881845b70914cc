#!/usr/bin/env node
'use strict';
// The `board-agent` command (package.json `bin`). It runs the built JavaScript in dist/ (made by
// `npm run build:agent`, and by `npm run build`, which `npm start` runs), which needs only the
// production dependencies: an install with `npm ci --omit=dev` after a build works. In a checkout
// whose sources are newer than that build (or with no build at all), it runs the TypeScript
// sources as they are, compiling each .ts file on load with @swc/core (a dev dependency; the
// test runner uses it too), so an edit is never hidden behind a stale build. Either way
// `@board/<lib>` resolves to that lib's folder (dist/libs/<lib>/src or libs/<lib>/src), like the
// tsconfig paths.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const root = path.resolve(__dirname, '..', '..', '..');
const built = path.join(root, 'dist', 'apps', 'agent', 'src', 'main.js');
const source = path.join(root, 'apps', 'agent', 'src', 'main.ts');
const say = (line) => process.stderr.write(`board-agent: ${line}\n`);

/** The newest modification time of the .ts files the command is built from (0 without sources). */
function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  walk(path.join(root, 'apps', 'agent', 'src'));
  walk(path.join(root, 'libs', 'client', 'src'));
  return newest;
}

function loadSwc() {
  try {
    return require('@swc/core');
  } catch {
    return null;
  }
}

function resolveLibsIn(base) {
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    const lib = /^@board\/([a-z-]+)$/.exec(request);
    return resolve.call(this, lib ? path.join(base, 'libs', lib[1], 'src') : request, parent, ...rest);
  };
}

function runSources(swc) {
  resolveLibsIn(root);
  require.extensions['.ts'] = function compile(module, filename) {
    const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
      filename,
      sourceMaps: 'inline',
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    module._compile(code, filename);
  };
  return require(source);
}

function runBuilt() {
  resolveLibsIn(path.join(root, 'dist'));
  return require(built);
}

function entry() {
  const hasBuild = fs.existsSync(built);
  const hasSources = fs.existsSync(source);
  if (hasBuild && (!hasSources || newestSource() <= fs.statSync(built).mtimeMs)) return runBuilt();
  const swc = hasSources ? loadSwc() : null;
  if (swc) return runSources(swc);
  if (hasBuild) {
    say('the build in dist/ is older than the sources; `npm run build:agent` refreshes it.');
    return runBuilt();
  }
  say('there is no build to run: `npm run build:agent` makes it (or `npm ci` to run the sources).');
  process.exit(1);
}

entry()
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
    // Open sockets of an ended stream must not hold the answer back.
    setTimeout(() => process.exit(code), 2000).unref();
  });
