import { Injectable } from '@nestjs/common';

export interface CachedLists {
  /** What the lists were built from: the fingerprint, the project key and doneWhen. */
  stamp: string;
  /** Kept as UTF-8 bytes: a hit is then copied into the answer, not encoded again. */
  tasksJson: Buffer;
  archivedJson: Buffer;
  firstThreeJson: Buffer;
  taskCount: number;
}

const MAX_PROJECTS = 32;

/**
 * The serialised task lists of recently read boards, per instance. An entry is used only while
 * the database's fingerprint of the project's rows still matches the one it was built from, so a
 * write on any instance retires it at once; nothing else depends on it being there.
 */
@Injectable()
export class BoardCache {
  private readonly entries = new Map<string, CachedLists>();

  get(projectId: string, stamp: string): CachedLists | null {
    const entry = this.entries.get(projectId);
    if (!entry || entry.stamp !== stamp) return null;
    // Most recently used last.
    this.entries.delete(projectId);
    this.entries.set(projectId, entry);
    return entry;
  }

  put(projectId: string, entry: CachedLists): void {
    this.entries.delete(projectId);
    this.entries.set(projectId, entry);
    while (this.entries.size > MAX_PROJECTS) this.entries.delete(this.entries.keys().next().value!);
  }
}
