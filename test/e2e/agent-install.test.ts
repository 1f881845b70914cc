/**
 * The client and the agent command outside the repository. The typed client (libs/client) is
 * packed with `npm pack` (its prepack builds JavaScript and declarations), installed into a
 * throw-away project with npm (offline from the cache: only openapi-fetch comes along), type-checked
 * as a consumer would use it, and run against a real instance. `board-agent` is built to JavaScript
 * (the build:agent tsconfig) and run with plain `node` from a folder where only its production
 * dependencies are installed (`npm install --omit=dev`), so neither @swc/core nor any other dev
 * dependency can be reached.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expectStatus } from '../support/fixtures';
import { createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);
/** npm, offline from the cache when it can be, and quiet. */
const npm = (args: string[], cwd: string) => run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env: process.env, maxBuffer: 16 << 20 });

jest.setTimeout(240_000);

describe('the client and the agent command outside the repository', () => {
  let t: TestApp;
  let base: string;
  let owner: Person;
  let projectId: string;
  let folder: string;

  beforeAll(async () => {
    t = await startTestApp();
    base = t.api.replace(/\/api$/, '');
    owner = await registerPerson(t, 'Olive');
    projectId = (await createProject(owner.client, 'Installed', 'INS')).id;
    folder = mkdtempSync(join(tmpdir(), 'board-install-'));
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await t?.close();
  });

  it('packs the client into a tarball that installs into another project, type-checks and calls a real instance', async () => {
    const packs = join(folder, 'packs');
    mkdirSync(packs);
    await npm(['pack', '--pack-destination', packs], join(ROOT, 'libs', 'client'));
    const [tarball] = readdirSync(packs);
    expect(tarball).toMatch(/^board-client-\d+\.\d+\.\d+\.tgz$/);

    const consumer = join(folder, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
    await npm(['install', join(packs, tarball)], consumer);
    const installed = JSON.parse(readFileSync(join(consumer, 'node_modules', '@board', 'client', 'package.json'), 'utf8'));
    expect(installed).toMatchObject({ name: '@board/client', main: 'dist/index.js', types: 'dist/index.d.ts' });
    expect(readdirSync(join(consumer, 'node_modules', '@board', 'client', 'dist')).filter((f) => f.endsWith('.ts'))).toContain('index.d.ts');

    writeFileSync(
      join(consumer, 'use.ts'),
      `import { BoardApiError, BoardClient, type Board } from '@board/client';

async function main(): Promise<void> {
  const person = new BoardClient({ baseUrl: process.env.BOARD_URL as string });
  await person.login(process.env.BOARD_EMAIL as string, process.env.BOARD_PASSWORD as string);
  const me = await person.me();
  const board: Board = await person.board(process.env.BOARD_PROJECT as string);
  const made = await person.api.POST('/api/projects/{projectId}/tasks', { params: { path: { projectId: board.project.id } }, body: { title: 'From the package' } });
  let refusal: unknown = null;
  await person.task('00000000-0000-4000-8000-000000000000').catch((error: unknown) => (refusal = error));
  const refused = refusal instanceof BoardApiError ? { status: refusal.status, message: refusal.message } : String(refusal);
  console.log(JSON.stringify({ me: me.name, project: board.project.name, created: made.data?.task.title, refused }));
}
void main();
`,
    );
    // A consumer's TypeScript reads the shipped declarations (the API's paths included).
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--strict', '--module', 'commonjs', '--target', 'es2022', '--lib', 'es2023,dom', '--skipLibCheck', 'false', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules/@types'), 'use.ts'], { cwd: consumer });

    const { stdout } = await run(process.execPath, ['use.js'], { cwd: consumer, env: { PATH: process.env.PATH ?? '', BOARD_URL: base, BOARD_EMAIL: owner.email, BOARD_PASSWORD: owner.password, BOARD_PROJECT: projectId } });
    expect(JSON.parse(stdout)).toEqual({ me: 'Olive', project: 'Installed', created: 'From the package', refused: { status: 404, message: 'Task not found.' } });
  });

  it('runs the built board-agent with plain node and only its production dependencies', async () => {
    const app = join(folder, 'agent');
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'apps/agent/tsconfig.build.json'), '--outDir', join(app, 'dist')]);
    cpSync(join(ROOT, 'apps/agent/bin'), join(app, 'apps/agent/bin'), { recursive: true });
    const dependencies = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies as Record<string, string>;
    const runtime = ['@modelcontextprotocol/sdk', 'openapi-fetch', 'zod'];
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'board-agent-install', private: true, bin: { 'board-agent': 'apps/agent/bin/board-agent.js' }, dependencies: Object.fromEntries(runtime.map((name) => [name, dependencies[name]])) }),
    );
    await npm(['install', '--omit=dev'], app);
    expect(() => require.resolve('@swc/core', { paths: [app] })).toThrow();

    const token = (await createAgent(owner.client, projectId, 'Packy')).token;
    const task = (await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title: 'Built agent' }), 201)).task;
    const env = { PATH: process.env.PATH ?? '', BOARD_URL: base, BOARD_TOKEN: token, BOARD_AGENT_STATE: join(app, 'state.json') };
    const agent = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        // Run from a folder outside both trees, so nothing but the install's node_modules resolves.
        const child = spawn(process.execPath, [join(app, 'apps/agent/bin/board-agent.js'), ...args], { cwd: folder, env });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('close', (code) => done({ code, stdout, stderr }));
      });
    const claimed = await agent(['claim', task.key, '--goal', 'built']);
    expect(claimed).toMatchObject({ code: 0, stderr: '' });
    expect(claimed.stdout).toMatch(new RegExp(`^Claimed ${task.key} \\(Built agent\\); run `));
    expect(await agent(['done', '--log', 'from the build'])).toEqual({ code: 0, stdout: 'done · (no step)\n', stderr: '' });

    // Sources newer than the build with no @swc/core to compile them: the build still runs, and says it is older.
    mkdirSync(join(app, 'apps/agent/src'), { recursive: true });
    writeFileSync(join(app, 'apps/agent/src/main.ts'), 'export {};\n');
    const stale = await agent(['runs']);
    expect(stale).toEqual({ code: 0, stdout: '', stderr: 'board-agent: the build in dist/ is older than the sources; `npm run build:agent` refreshes it.\nboard-agent: You have no open run.\n' });
    rmSync(join(app, 'apps/agent/src'), { recursive: true });

    // The MCP server of the same install answers an MCP client.
    const mcp = new McpClient({ name: 'install-test', version: '1.0.0' });
    await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [join(app, 'apps/agent/bin/board-agent.js'), 'mcp'], env, cwd: folder, stderr: 'pipe' }));
    try {
      expect((await mcp.listTools()).tools.map((tool) => tool.name)).toContain('claim_task');
    } finally {
      await mcp.close();
    }
  });
});
