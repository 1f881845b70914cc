import type { UserKind, UserView } from '@board/accounts';
import type { ResolvedScope, ScopeTarget } from '../scope.sql';

export type CredentialUser = UserView & { kind: UserKind };

/** A credential's user, with the project check of the route resolved in the same query when a target was given. */
export type Credential<T = object> = CredentialUser & T & { scope?: ResolvedScope };

/**
 * The credential checks every request makes: a session with its person, a token with its agent.
 * A route inside a project also names its target (the project, or a resource of it): the project
 * and the caller's role there come back with the credential, so most requests are authorised in
 * one round trip. (Reads only; the aggregates are not needed to say who calls.)
 */
export abstract class CredentialQuery {
  /** The person behind a live session, and when the session ends. */
  abstract personBySession(digest: string, now: Date, target?: ScopeTarget): Promise<Credential<{ expiresAt: Date }> | null>;

  /** The agent behind a live token, and its project; stamps the token's use (coarsely, once a minute). */
  abstract agentByToken(digest: string, now: Date, target?: ScopeTarget): Promise<Credential<{ projectId: string }> | null>;
}
