import { Injectable } from '@nestjs/common';
import { BoardLists } from '@board/persistence';

export interface CachedLists {
  /** What the lists were built from: the fingerprint, the project key and doneWhen. */
  stamp: string;
  /** Kept as UTF-8 bytes: a hit is then copied into the answer, not encoded again. */
  lists: BoardLists;
}

const MAX_PROJECTS = 32;

/**
 * The serialised task lists of recently read boards, per instance. An entry is used only while
 * the database's fingerprint of the project's rows still matches the one it was built from, so a
 * write on any instance retires it at once; a retired entry still lends the JSON of its unchanged
 * rows to the next build. Nothing else depends on an entry being there.
 */
@Injectable()
export class BoardCache {
  private readonly entries = new Map<string, CachedLists>();

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
    this.touch(projectId, entry);
    // Maps keep insertion order and touch() re-inserts: the first key is the least recently used.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_PROJECTS) break;
      this.entries.delete(oldest);
    }
  }

  /** Most recently used last. */
  private touch(projectId: string, entry: CachedLists): void {
    this.entries.delete(projectId);
    this.entries.set(projectId, entry);
  }
}
