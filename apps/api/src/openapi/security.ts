import type { AccessRule, Gate } from '../auth/access.decorator';

/** The two credentials of the contract (interface.md › Authentication). */
export const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'service_session',
    description: 'A person signed in by `POST /api/auth/login` or `/api/auth/register` (30 days, httpOnly, SameSite=Lax).',
  },
  agentToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svc_…',
    description: 'An agent token (`Authorization: Bearer svc_…`), made in the project\'s People settings; one project. A bearer value without the `svc_` prefix is ignored and the cookie is tried.',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operators\' metrics token (`Authorization: Bearer <SERVICE_METRICS_TOKEN>`), for `GET /api/metrics` only; never a session or an agent token.',
  },
} as const;

const SESSION = { session: [] as string[] };
const TOKEN = { agentToken: [] as string[] };
const METRICS = { metricsToken: [] as string[] };

/** Who may call, in words, and the 403 sentence of the gate. */
const GATES: Record<Gate, { security: object[]; who: string; forbidden?: string }> = {
  public: { security: [], who: 'Public: no credential is read.' },
  person: { security: [SESSION], who: 'A signed-in person (session cookie); a bearer token is ignored here.' },
  human: { security: [SESSION], who: 'A person (session cookie).', forbidden: 'Only a person can do this.' },
  agent: { security: [TOKEN], who: 'An agent (bearer token).', forbidden: 'Only an agent can do this.' },
  signedIn: { security: [SESSION, TOKEN], who: 'A person (session cookie) or an agent (bearer token); each sees only what its credential may.' },
  member: { security: [SESSION, TOKEN], who: 'Any member of the project, person or agent.' },
  humanMember: { security: [SESSION], who: 'A person who is a member of the project.', forbidden: 'Only a person can do this.' },
  admin: { security: [SESSION], who: 'The owner or an admin of the project.', forbidden: 'Only the owner or an admin can {what}.' },
  owner: { security: [SESSION], who: 'The owner of the project.', forbidden: 'Only the owner can {what}.' },
  agentMember: { security: [TOKEN], who: 'An agent of the project (bearer token).', forbidden: 'Only an agent can do this.' },
  scraper: {
    security: [METRICS],
    who: 'A metrics scraper with the metrics token. While `SERVICE_METRICS_TOKEN` is unset the route answers 404 `Not found.` like an unknown address; without the bearer 401 `Send the metrics token as a bearer token.`, with another 401 `That is not the metrics token.`',
  },
};

const PROJECT_GATES: Gate[] = ['member', 'humanMember', 'admin', 'owner', 'agentMember'];

export interface GateDoc {
  security: object[];
  description: string;
  /** The statuses the gate itself can answer (beside the route's own). */
  statuses: number[];
}

/** A route's access rule as OpenAPI security requirements, a description and the gate's statuses. */
export function gateDoc(rule: AccessRule | undefined, method: string): GateDoc {
  // A route that forgot its rule is closed by the AccessGuard (401 for everybody): say so.
  if (!rule) return { security: [SESSION, TOKEN], description: '**Access**: none declared: every call is refused with 401.', statuses: [401] };
  const gate = GATES[rule.gate];
  const lines = [`**Access**: ${gate.who}`];
  const statuses: number[] = [];
  if (rule.gate !== 'public') statuses.push(401);
  if (rule.gate === 'scraper') statuses.push(404);
  const forbidden = gate.forbidden?.replace('{what}', rule.what ?? '…');
  if (forbidden) lines.push(`Others: 403 \`${forbidden}\``);
  const inProject = PROJECT_GATES.includes(rule.gate);
  if (inProject) {
    lines.push('Not a member of the project (or the resource is not there): 404 `Project not found.` / the resource\'s 404; a token of another project: 403 `That token belongs to another project.`');
    statuses.push(403, 404);
  } else if (forbidden) {
    statuses.push(403);
  }
  // decisions › Security: a write by cookie (or a public write without a token) from another
  // origin is refused before the gate.
  const byCookie = rule.gate === 'public' || gate.security.includes(SESSION);
  if (byCookie && method !== 'get') {
    lines.push('A write whose `Origin` is another site: 403 `Cross-site requests are refused.`');
    statuses.push(403);
  }
  if (rule.needsBucket) {
    lines.push('503 while the server has no S3 bucket.');
    statuses.push(503);
  }
  return { security: gate.security, description: lines.join('\n\n'), statuses: [...new Set(statuses)] };
}
