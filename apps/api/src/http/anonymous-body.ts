import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RequestPayload } from 'fastify';
import { DomainError } from '@board/kernel';
import type { AccessRule } from '../auth/access.decorator';
import { credentialLookup } from '../auth/access.guard';
import type { CredentialsService } from '../auth/credentials.service';

/**
 * Largest body read from a request without a valid credential (decisions › Fair use: "A body is
 * read after its credential"). Sign-up, sign-in, forgot and reset bodies are far smaller.
 */
export const ANONYMOUS_BODY_LIMIT = 64 * 1024;

/** The refusal kept for a chunked body without a valid credential, raised once it passes the limit. */
const REFUSAL = Symbol('anonymous body refusal');
type Marked = FastifyRequest & { [REFUSAL]?: DomainError };

export interface AnonymousBodyOptions {
  /** Each route's gate by `METHOD /fastify/path` (from the controllers' decorators). */
  rules: ReadonlyMap<string, AccessRule | undefined>;
  credentials: CredentialsService;
  /** The server has a bucket (file routes answer 503 before their 401 without one). */
  bucket: boolean;
}

/**
 * Without this, Fastify reads a body (up to the route's limit: 10 MB for an import) before the
 * guard looks at the credential, so anonymous uploads could fill the memory of every instance.
 * A body announced over 64 KB by Content-Length is refused in onRequest, unread; a chunked one
 * is counted as it arrives and refused when it passes 64 KB. The refusal is the route's own 401
 * (the guard's order: 503 for a file route without a bucket comes first), with `connection:
 * close` so the rest of the body is not waited for.
 */
export function anonymousBodyHooks({ rules, credentials, bucket }: AnonymousBodyOptions) {
  // Nearly every request passes both hooks without work: they answer at once (callback style,
  // no promise); only a large or chunked body takes the async path.
  const onLargeBody = async (request: FastifyRequest, reply: FastifyReply, length: number | 'chunked'): Promise<void> => {
    const rule = rules.get(`${request.method} ${request.routeOptions.url}`);
    if (rule?.needsBucket && !bucket) {
      reply.header('connection', 'close');
      throw new DomainError('attachment.off');
    }
    // The guard's own lookup (same credential, same target), so the guard reuses its answer.
    // Public routes and addresses outside the API (the page, the docs, an unknown path) read
    // no body of this size either: any valid session or agent token earns it, nothing else.
    const lookup = rule && rule.gate !== 'public' ? credentialLookup(rule, request.params as Record<string, string>) : undefined;
    const refusal = await credentials.refusalOf(request, lookup?.cookieOnly ?? false, lookup?.target);
    if (!refusal) return;
    if (length === 'chunked') {
      (request as Marked)[REFUSAL] = refusal;
      return;
    }
    reply.header('connection', 'close');
    throw refusal;
  };
  return {
    onRequest(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
      const length = announcedLength(request);
      if (length !== 'chunked' && length <= ANONYMOUS_BODY_LIMIT) return done();
      onLargeBody(request, reply, length).then(() => done(), done);
    },

    preParsing(request: FastifyRequest, reply: FastifyReply, payload: RequestPayload, next: (error: Error | null, payload?: RequestPayload) => void): void {
      const refusal = (request as Marked)[REFUSAL];
      if (!refusal) return next(null, payload);
      let seen = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
          seen += chunk.length;
          if (seen <= ANONYMOUS_BODY_LIMIT) return done(null, chunk);
          reply.header('connection', 'close');
          done(refusal);
        },
      });
      next(null, payload.pipe(counter) as unknown as RequestPayload);
    },
  };
}

/** The body's announced size, or `chunked` when it is sent without one. */
function announcedLength(request: FastifyRequest): number | 'chunked' {
  const header = request.headers['content-length'];
  if (header !== undefined) {
    const length = Number(header);
    return Number.isFinite(length) ? length : 0;
  }
  return request.headers['transfer-encoding'] !== undefined ? 'chunked' : 0;
}
