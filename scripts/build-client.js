#!/usr/bin/env node
'use strict';
// Builds libs/client into an installable package (`npm run build:client`, and `npm pack` in
// libs/client runs it as `prepack`): CommonJS JavaScript with declarations in libs/client/dist.
// tsc does not copy the hand-kept declaration file of the API's types (schema.d.ts, written by
// `npm run client:types`), so it is copied beside the declarations that import it.
const { execFileSync } = require('node:child_process');
const { copyFileSync, rmSync } = require('node:fs');
const path = require('node:path');

const client = path.resolve(__dirname, '..', 'libs', 'client');
const dist = path.join(client, 'dist');
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(client, 'tsconfig.build.json')], { stdio: 'inherit' });
copyFileSync(path.join(client, 'src', 'schema.d.ts'), path.join(dist, 'schema.d.ts'));
