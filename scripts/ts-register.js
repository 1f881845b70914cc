// Lets Node run the TypeScript sources directly (decorators and their metadata included), for the
// small scripts of this repository: `node -r ./scripts/ts-register.js script.ts`. Same settings
// as Jest's transform (jest.config.js); `@board/<lib>` maps to libs/<lib>/src.
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { transformSync } = require('@swc/core');

const root = join(__dirname, '..');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const lib = /^@board\/([a-z-]+)$/.exec(request);
  return resolve.call(this, lib ? join(root, 'libs', lib[1], 'src') : request, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
