import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function findVersion(): string {
  // Walk up from this file to the package.json, whether running from src (tests) or dist.
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === 'task-board-service') return String(pkg.version);
    } catch {
      /* keep walking */
    }
    dir = join(dir, '..');
  }
  return '0.0.0';
}

export const SERVICE_VERSION = findVersion();
