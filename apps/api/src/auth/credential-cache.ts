import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { Clock, Metrics, NoticeFeed } from '@board/kernel';
import { CredentialChanges, ResolvedScope, ScopeTarget } from '@board/persistence';
import { AppConfig } from '../config/app-config';

/** The most answers an instance keeps, whatever the number of callers (least recently used go first). */
export const CREDENTIAL_CACHE_ENTRIES = 10_000;

/**
 * The targets whose answers are kept: a project, and a task (most writes name one). A task's
 * answer depends on the task being live, which the triggers ring for; the other resources (a
 * comment, a property, …) can go without a notice, so they are asked every time.
 */
const KEPT_TARGETS: ReadonlySet<ScopeTarget['kind']> = new Set(['project', 'task']);

interface Entry {
  answer: object;
  /** Clock time (ms) after which the answer is asked again. */
  until: number;
}

/**
 * The answers of recent credential checks on this instance (who a session or agent token is,
 * with the route's project and the caller's role there), reused for SERVICE_CREDENTIAL_CACHE_MS
 * so that a caller's repeated requests skip that round trip (issue 29).
 *
 * Revocation still ends access at once:
 * - every change that makes an answer wrong is announced, and any announcement forgets every
 *   answer: this instance's own commits by `CredentialChanges` (right after COMMIT, before its
 *   next request), every instance's by the database's notices (`access`, `credentials`);
 * - while the listening connection is away (and until `reconnected` is heard) nothing is kept or
 *   reused: notices of that time are lost;
 * - a check that began before an announcement does not keep its answer (the generation moved):
 *   it may have read the rows from before the change;
 * - only whole answers are kept: never an unknown credential or a refusal (no project, not a
 *   member), so bogus tokens and ids cost no memory and a member added is let in at once, and a
 *   session's answer never outlives the session.
 *
 * Keys are the credential's digest (never the secret) with its kind and the target.
 */
@Injectable()
export class CredentialCache implements OnModuleInit, OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  /** Moves at every announcement: a check keeps its answer only if it did not move meanwhile. */
  private generation = 0;
  private readonly ttlMs: number;
  private notices?: Subscription;
  private unwatch?: () => void;

  constructor(
    config: AppConfig,
    private readonly feed: NoticeFeed,
    private readonly changes: CredentialChanges,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {
    this.ttlMs = config.SERVICE_CREDENTIAL_CACHE_MS;
  }

  onModuleInit(): void {
    if (this.ttlMs === 0) return;
    this.notices = this.feed.stream.subscribe((notice) => {
      if (notice.type === 'access' || notice.type === 'credentials' || notice.type === 'reconnected') this.forget();
    });
    this.unwatch = this.changes.watch(() => this.forget());
  }

  onModuleDestroy(): void {
    this.notices?.unsubscribe();
    this.unwatch?.();
  }

  /** Answers kept now (at most CREDENTIAL_CACHE_ENTRIES). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The answer of a check of the credential with `digest` (`via` says which kind) for `target`:
   * the kept one, else `check()`'s, kept unless it is a refusal. `endsAt` is when the credential
   * itself ends (a session's expiry): the answer is not kept past it.
   */
  async answer<T extends { scope?: ResolvedScope }>(
    via: 'session' | 'token',
    digest: string,
    target: ScopeTarget | undefined,
    check: () => Promise<T | null>,
    endsAt?: (answer: T) => Date,
  ): Promise<T | null> {
    if (this.ttlMs === 0 || (target && !KEPT_TARGETS.has(target.kind))) return check();
    if (!this.feed.listening) {
      // Notices may be going unheard: what was kept may be stale, and nothing new is kept.
      this.forget();
      this.metrics.credentialChecked('miss');
      return check();
    }
    const key = `${via} ${digest} ${target?.kind ?? ''} ${target?.id ?? ''}`;
    const now = this.clock.now().getTime();
    const kept = this.entries.get(key);
    if (kept && kept.until > now) {
      // Maps keep insertion order: re-inserted, the entry is the most recently used.
      this.entries.delete(key);
      this.entries.set(key, kept);
      this.metrics.credentialChecked('hit');
      return kept.answer as T;
    }
    if (kept) this.entries.delete(key);
    this.metrics.credentialChecked('miss');
    const generation = this.generation;
    const answer = await check();
    if (!answer || (target && !(answer.scope?.projectId && answer.scope.role))) return answer;
    if (generation !== this.generation || !this.feed.listening) return answer;
    const until = Math.min(this.clock.now().getTime() + this.ttlMs, endsAt ? endsAt(answer).getTime() : Infinity);
    this.keep(key, frozen(answer), until);
    return answer;
  }

  /** Forgets every answer, and every check under way keeps none. */
  forget(): void {
    this.generation++;
    this.entries.clear();
  }

  private keep(key: string, answer: object, until: number): void {
    this.entries.delete(key);
    this.entries.set(key, { answer, until });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= CREDENTIAL_CACHE_ENTRIES) break;
      this.entries.delete(oldest);
    }
  }
}

/** The answer and its scope frozen: one kept object is handed to many requests. */
function frozen<T extends { scope?: ResolvedScope }>(answer: T): T {
  if (answer.scope) Object.freeze(answer.scope);
  return Object.freeze(answer);
}
