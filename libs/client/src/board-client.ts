/**
 * The typed client of the task board API: openapi-fetch over the `paths` of the service's OpenAPI
 * document (schema.d.ts). Two modes, as interface.md › Authentication has them: a person's session
 * cookie (`login`; a browser keeps it itself with `credentials: 'include'`, Node keeps it here) or
 * an agent's bearer token. Every request carries `x-service-client` so a UI can skip the echo of its
 * own writes on the stream. A refusal throws BoardApiError with the status and the contract's sentence.
 * Only `fetch` and Web APIs: it runs in Node 20 and in browsers.
 */
import createClient, { type Client } from 'openapi-fetch';
import { BoardApiError, errorFrom, networkError } from './errors';
import { sameOriginOnly } from './redirects';
import type { paths } from './schema';
import { openStream, type StreamEvent, type StreamOptions } from './stream';
import { laterPosition, POSITION_HEADER } from './write-position';
import type { AgentMe, AnswerBody, Board, ClaimBody, Comment, ControlWord, NextAnswer, NextBody, ReportAnswer, ReportBody, Rules, Run, Task, Usage, User } from './types';

export interface BoardClientOptions {
  /** The service's base address, e.g. `https://board.example.com` (routes carry `/api`); `''` for the page's own origin. */
  baseUrl: string;
  /** Agent mode: the `svc_…` token. Without it the client is a person's and uses the session cookie. */
  token?: string;
  /** The `x-service-client` tag of this client's writes; a random one by default. */
  clientId?: string;
  /** Another fetch (tests, proxies); `globalThis.fetch` by default. */
  fetch?: typeof fetch;
  /** Browser cookie policy; `include` by default so a board UI on another origin still sends its session. */
  credentials?: RequestInit['credentials'];
  /**
   * `same-origin`: follow redirects only within the board's origin and refuse one to another
   * address (redirects.ts; Node only — the agent uses it). fetch's own rule by default.
   */
  redirects?: 'follow' | 'same-origin';
}

const SESSION = /(?:^|[;,]\s*)service_session=([^;]*)/;

function randomId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export class BoardClient {
  /** The typed openapi-fetch client, for any route of the document: `client.api.GET('/api/…', …)`. */
  readonly api: Client<paths>;
  readonly clientId: string;
  readonly baseUrl: string;
  /** The session id kept from login/register in Node (a browser keeps the cookie itself and this stays unset). */
  private session?: string;
  private readonly token?: string;
  /** The newest write position an answer told of (write-position.ts), sent back on every request. */
  private position?: string;
  private readonly fetchImpl: typeof fetch;
  private readonly credentials: RequestInit['credentials'];

  constructor(options: BoardClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '').replace(/\/api$/, '');
    this.token = options.token;
    this.clientId = options.clientId ?? randomId();
    this.credentials = options.credentials ?? 'include';
    const given = options.fetch ?? globalThis.fetch.bind(globalThis);
    const base = options.redirects === 'same-origin' ? sameOriginOnly(given) : given;
    this.fetchImpl = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      try {
        return await base(input, init);
      } catch (error) {
        if (error instanceof BoardApiError || (error as Error)?.name === 'AbortError') throw error;
        throw networkError(error);
      }
    }) as typeof fetch;
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: (request) => this.fetchImpl(request), credentials: this.credentials });
    this.api.use({
      onRequest: ({ request }) => {
        for (const [name, value] of Object.entries(this.headers())) request.headers.set(name, value);
        return request;
      },
      onResponse: ({ response }) => {
        this.keepSession(response);
        this.position = laterPosition(this.position, response.headers.get(POSITION_HEADER));
        return response;
      },
    });
  }

  /** The headers of this client's credential, tag and newest write position (for a request made outside `api`). */
  headers(): Record<string, string> {
    const headers: Record<string, string> = { 'x-service-client': this.clientId };
    if (this.position) headers[POSITION_HEADER] = this.position;
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    else if (this.session) headers.cookie = `service_session=${this.session}`;
    return headers;
  }

  private keepSession(response: Response): void {
    const setCookie = response.headers.get('set-cookie');
    const match = setCookie ? SESSION.exec(setCookie) : null;
    if (match) this.session = match[1] || undefined;
  }

  /** Answers the data of a call, or throws its refusal as a BoardApiError. */
  async call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await pending;
    if (!response.ok || error !== undefined) throw errorFrom(response.status, error, response.statusText);
    return data as T;
  }

  // People (session cookie) ------------------------------------------------------------------

  async login(email: string, password: string): Promise<User> {
    return (await this.call(this.api.POST('/api/auth/login', { body: { email, password } }))).user;
  }

  async register(email: string, name: string, password: string): Promise<User> {
    return (await this.call(this.api.POST('/api/auth/register', { body: { email, name, password } }))).user;
  }

  async logout(): Promise<void> {
    await this.call(this.api.POST('/api/auth/logout'));
    this.session = undefined;
  }

  async me(): Promise<User> {
    return (await this.call(this.api.GET('/api/auth/me'))).user;
  }

  // Reads any member makes -------------------------------------------------------------------

  board(projectId: string): Promise<Board> {
    return this.call(this.api.GET('/api/projects/{projectId}/board', { params: { path: { projectId } } }));
  }

  async task(taskId: string): Promise<Task> {
    return (await this.call(this.api.GET('/api/tasks/{taskId}', { params: { path: { taskId } } }))).task;
  }

  async rules(projectId: string): Promise<Rules> {
    return (await this.call(this.api.GET('/api/projects/{projectId}/rules', { params: { path: { projectId } } }))).rules;
  }

  async comment(taskId: string, body: string): Promise<Comment> {
    return (await this.call(this.api.POST('/api/tasks/{taskId}/comments', { params: { path: { taskId } }, body: { body } }))).comment;
  }

  async run(runId: string): Promise<Run> {
    return (await this.call(this.api.GET('/api/runs/{runId}', { params: { path: { runId } } }))).run;
  }

  /** The project's usage per agent and UTC day (`from`/`to` as YYYY-MM-DD; the last 30 days by default). */
  usage(projectId: string, range: { from?: string; to?: string } = {}): Promise<Usage> {
    return this.call(this.api.GET('/api/projects/{projectId}/usage', { params: { path: { projectId }, query: range } }));
  }

  // Agents (bearer token) --------------------------------------------------------------------

  agentMe(): Promise<AgentMe> {
    return this.call(this.api.GET('/api/agent/me'));
  }

  async claim(taskId: string, body: ClaimBody = {}): Promise<Run> {
    return (await this.call(this.api.POST('/api/tasks/{taskId}/run', { params: { path: { taskId } }, body }))).run;
  }

  /** Claims the next task of the project's work queue; `{ run: null, task: null }` when nothing is left. */
  async next(projectId: string, body: NextBody = {}): Promise<NextAnswer> {
    return (await this.call(this.api.POST('/api/projects/{projectId}/runs/next', { params: { path: { projectId } }, body }))) as NextAnswer;
  }

  /** A report (step, plan, log, status…); the answer carries the person's control word, if any. */
  report(runId: string, body: ReportBody): Promise<ReportAnswer> {
    return this.call(this.api.PATCH('/api/runs/{runId}', { params: { path: { runId } }, body }));
  }

  /** A heartbeat: keeps `beatAt` fresh and reads the control word. */
  beat(runId: string): Promise<ReportAnswer> {
    return this.report(runId, { beat: true });
  }

  // People steering a run --------------------------------------------------------------------

  async control(runId: string, control: ControlWord): Promise<Run> {
    return (await this.call(this.api.POST('/api/runs/{runId}/control', { params: { path: { runId } }, body: { control } }))).run;
  }

  /** A person answers the run's open question: the chosen options, or text for a free question. */
  async answer(runId: string, answer: AnswerBody['answer']): Promise<Run> {
    return (await this.call(this.api.POST('/api/runs/{runId}/answer', { params: { path: { runId } }, body: { answer } }))).run;
  }

  // The stream -------------------------------------------------------------------------------

  /** The project's stream: `for await (const event of client.stream(projectId)) …`; re-read on every `ready`. */
  stream(projectId: string, options: StreamOptions = {}): AsyncGenerator<StreamEvent, void, undefined> {
    return openStream(
      { url: `${this.baseUrl}/api/projects/${encodeURIComponent(projectId)}/stream`, headers: () => this.headers(), fetch: this.fetchImpl, credentials: this.credentials },
      options,
    );
  }
}

export function createBoardClient(options: BoardClientOptions): BoardClient {
  return new BoardClient(options);
}
