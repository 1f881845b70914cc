/**
 * This instance's own commits that changed what a credential check answers (a session, agent
 * token, membership or project deleted, a role changed, a person renamed, a task binned), heard
 * as soon as they are committed: the repositories that write them say so. The other instances
 * hear the database's notices instead (`NoticeFeed`), which may reach this one only after its
 * next request.
 */
export abstract class CredentialChanges {
  /** Calls `watcher` after each such commit; answers the call that stops it. */
  abstract watch(watcher: () => void): () => void;
}
