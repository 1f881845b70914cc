import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The claims an account of the test provider gives (its subject is its login name). */
export interface ProviderClaims {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface ProviderModule {
  Provider: new (issuer: string, configuration: Record<string, unknown>) => { callback(): Handler };
}

/**
 * oidc-provider is published as an ES module only. Node itself requires it (require(esm), Node
 * 20.19 and later), but Jest's CommonJS registry cannot: so it is loaded by Node's own require,
 * outside Jest's registry (`process.getBuiltinModule` hands out the real `module`, where Jest's
 * `require('node:module')` would be its own).
 */
const builtin = <T>(name: string): T => (process as unknown as { getBuiltinModule(name: string): T }).getBuiltinModule(name);

function loadProvider(): ProviderModule {
  return builtin<typeof import('node:module')>('node:module').createRequire(__filename)('oidc-provider') as ProviderModule;
}

/**
 * Data made in Node's own realm: the provider checks that its settings are plain objects, and
 * objects made in Jest's sandbox have another `Object.prototype`.
 */
const outside = <T>(data: T): T => (builtin<typeof import('node:vm')>('node:vm').runInThisContext('JSON') as JSON).parse(JSON.stringify(data)) as T;

/**
 * A real OpenID provider (oidc-provider, a certified implementation) on a port of its own: one
 * confidential client, RS256 keys of its own, and the library's development sign-in pages, where
 * any login name signs in as the account of that name (its claims are what `account()` gave it).
 * Its issuer is known before it serves (`start`), so the board can be started with it first and
 * the client registered with the board's redirect URIs after (`serve`).
 */
export class TestOpenIdProvider {
  readonly clientId = 'task-board';
  readonly clientSecret = randomBytes(24).toString('base64url');
  private readonly accounts = new Map<string, ProviderClaims>();
  private handler: Handler | null = null;
  private counter = 0;

  private constructor(private readonly server: Server, readonly issuer: string) {}

  static async start(): Promise<TestOpenIdProvider> {
    let provider: TestOpenIdProvider | null = null;
    const server = createServer((req, res) => {
      if (provider?.handler) provider.handler(req, res);
      else res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    provider = new TestOpenIdProvider(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return provider;
  }

  /** The board's settings for this provider. */
  env(name = 'Company login'): Record<string, string> {
    return { SERVICE_OIDC_ISSUER: this.issuer, SERVICE_OIDC_CLIENT_ID: this.clientId, SERVICE_OIDC_CLIENT_SECRET: this.clientSecret, SERVICE_OIDC_NAME: name };
  }

  /** Serves, with the client allowed to come back to these redirect URIs. */
  serve(redirectUris: string[]): void {
    const { Provider } = loadProvider();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const accounts = this.accounts;
    const settings = outside({
      clients: [{ client_id: this.clientId, client_secret: this.clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
      jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: { devInteractions: { enabled: true } },
    });
    const provider = new Provider(this.issuer, {
      ...settings,
      findAccount: (_ctx: unknown, id: string) => {
        const claims = accounts.get(id);
        return claims ? outside({ accountId: id }) && { accountId: id, claims: () => outside({ sub: id, ...claims }) } : undefined;
      },
    });
    this.handler = provider.callback();
  }

  /** A new account of the provider; answers its login name, which is also its subject. */
  account(claims: ProviderClaims): string {
    const login = `person-${++this.counter}-${randomBytes(4).toString('hex')}`;
    this.accounts.set(login, claims);
    return login;
  }

  /** Changes what an account's claims say from now on. */
  change(login: string, claims: ProviderClaims): void {
    this.accounts.set(login, claims);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
