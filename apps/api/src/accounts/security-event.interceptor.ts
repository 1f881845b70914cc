import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata, UseInterceptors } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { from, Observable, of, throwError } from 'rxjs';
import { catchError, mergeMap, switchMap } from 'rxjs/operators';
import type { SecurityKind } from '@board/accounts';
import { DomainError } from '@board/kernel';
import type { AuthContext } from '../auth/auth-context';
import { CredentialsService } from '../auth/credentials.service';
import { SecurityLogService } from './security-log.service';

const SECURITY_EVENT = 'board:security-event';

interface SecuritySpec {
  kind: SecurityKind;
  /** Recorded for the accounts the body's email names when the route refuses a wrong password or code. */
  failed?: SecurityKind;
  /**
   * The event is about the session the request arrived with, which the route ends (a sign-out):
   * read it before the handler runs. Other routes name their person after it (the access guard's
   * caller, the answer's user, or `securitySubject`), with no lookup of their own.
   */
  sessionBefore?: boolean;
}

/** Who a route's event is about, when its answer does not say (a reset answers `{ ok: true }`). */
const SUBJECT = Symbol('security-subject');

/** Another event the handler learnt of (a sign-in passed with a recovery code). */
const ALSO = Symbol('security-also');
type WithSubject = FastifyRequest & { [SUBJECT]?: string; [ALSO]?: SecurityKind[] };

/** Names the person a route's security event is about, from inside the handler. */
export function securitySubject(request: FastifyRequest, userId: string): void {
  (request as WithSubject)[SUBJECT] = userId;
}

/** Records `kind` too, after the route's own event, about the same person. */
export function securityAlso(request: FastifyRequest, kind: SecurityKind): void {
  const r = request as WithSubject;
  r[ALSO] = [...(r[ALSO] ?? []), kind];
}

/**
 * Records a security event when the route succeeds: about the person the handler named
 * (`securitySubject`), else the `{ user }` the route answers, else the caller the access guard
 * resolved, else (`sessionBefore`) the person whose session the request arrived with.
 */
@Injectable()
export class SecurityEventInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialsService,
    private readonly log: SecurityLogService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<SecuritySpec | undefined>(SECURITY_EVENT, context.getHandler());
    if (!spec) return next.handle();
    const request = context.switchToHttp().getRequest<WithSubject & { auth?: AuthContext }>();
    const before = spec.sessionBefore ? from(this.credentials.fromSession(request)) : of(null);
    return before.pipe(
      switchMap((session) =>
        next.handle().pipe(
          mergeMap(async (answer: unknown) => {
            const named = request[SUBJECT] ?? userOf(answer) ?? request.auth?.caller.id ?? session?.auth.caller.id;
            if (named) {
              await this.log.note(named, spec.kind, request);
              for (const also of request[ALSO] ?? []) await this.log.note(named, also, request);
            }
            return answer;
          }),
          catchError((error: unknown) => {
            // A wrong password or a wrong code; a missing code is the two-step sign-in's own first answer.
            const refusedSignIn = error instanceof DomainError && (error.code === 'account.login_failed' || error.code === 'totp.login_code_wrong');
            if (!spec.failed || !refusedSignIn) return throwError(() => error);
            const email = (request.body as { email?: unknown } | undefined)?.email;
            return from(this.log.noteFailedSignIn(email, request)).pipe(switchMap(() => throwError(() => error)));
          }),
        ),
      ),
    );
  }
}

function userOf(answer: unknown): string | undefined {
  const user = (answer as { user?: { id?: unknown } } | null | undefined)?.user;
  return typeof user?.id === 'string' ? user.id : undefined;
}

/** `@RecordsSecurity('signed_in', { failed: 'sign_in_failed' })` on a route of the auth family. */
export const RecordsSecurity = (kind: SecurityKind, options: Omit<SecuritySpec, 'kind'> = {}) =>
  applyDecorators(SetMetadata(SECURITY_EVENT, { kind, ...options } satisfies SecuritySpec), UseInterceptors(SecurityEventInterceptor));

