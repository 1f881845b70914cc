import { Injectable } from '@nestjs/common';
import { BoardLists } from '@board/persistence';
import { AppConfig } from '../config/app-config';

export interface CachedLists {
  /** What the lists were built from: the fingerprint, the project key and doneWhen. */
  stamp: string;
  /** Kept as UTF-8 bytes: a hit is then copied into the answer, not encoded again. */
  lists: BoardLists;
}

/**
 * What one task's bookkeeping costs beside its JSON bytes: its piece (offsets, row version, the
 * tail text) and its map entry. An estimate on the generous side, so the bound holds for the heap
 * as well as for the buffers.
 */
const PIECE_BYTES = 256;

/** The bytes an entry keeps alive: its lists and the pieces that point into them. */
export function sizeOfLists(lists: BoardLists): number {
  const firstThree = lists.firstThreeJson === lists.tasksJson ? 0 : lists.firstThreeJson.length;
  return lists.tasksJson.length + lists.archivedJson.length + firstThree + lists.pieces.size * PIECE_BYTES;
}

/**
 * The serialised task lists of recently read boards, per instance, at most
 * SERVICE_BOARD_CACHE_BYTES of them (256 MB) whatever the number of projects: counting projects
 * let four 200,000-task boards take a gigabyte. The least recently used go first; a board larger
 * than the whole bound is built for its read and not kept.
 *
 * An entry is used only while the database's fingerprint of the project's rows still matches the
 * one it was built from, so a write on any instance retires it at once; a retired entry still
 * lends the JSON of its unchanged rows to the next build. Nothing else depends on an entry being
 * there.
 */
@Injectable()
export class BoardCache {
  private readonly entries = new Map<string, CachedLists & { bytes: number }>();
  private held = 0;
  private readonly maxBytes: number;

  constructor(config: AppConfig) {
    this.maxBytes = config.SERVICE_BOARD_CACHE_BYTES;
  }

  /** Bytes the entries keep now (sizeOfLists): never more than the bound. */
  get heldBytes(): number {
    return this.held;
  }

  /** The projects kept, least recently used first. */
  projects(): string[] {
    return [...this.entries.keys()];
  }

  get(projectId: string, stamp: string): BoardLists | null {
    const entry = this.entries.get(projectId);
    if (!entry || entry.stamp !== stamp) return null;
    this.touch(projectId, entry);
    return entry.lists;
  }

  /** The last lists built for the project, whatever they were built from. */
  latest(projectId: string): BoardLists | null {
    return this.entries.get(projectId)?.lists ?? null;
  }

  put(projectId: string, entry: CachedLists): void {
    this.drop(projectId);
    const bytes = sizeOfLists(entry.lists);
    if (bytes > this.maxBytes) return;
    this.entries.set(projectId, { ...entry, bytes });
    this.held += bytes;
    // Maps keep insertion order and touch() re-inserts: the first key is the least recently used.
    for (const oldest of this.entries.keys()) {
      if (this.held <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  private drop(projectId: string): void {
    const entry = this.entries.get(projectId);
    if (!entry) return;
    this.entries.delete(projectId);
    this.held -= entry.bytes;
  }

  /** Most recently used last. */
  private touch(projectId: string, entry: CachedLists & { bytes: number }): void {
    this.entries.delete(projectId);
    this.entries.set(projectId, entry);
  }
}
