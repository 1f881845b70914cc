/** Entry of `board-agent` (bin/board-agent.js): the MCP server on `mcp`, the CLI otherwise. Answers the exit code. */
import { runCli } from './cli';

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'mcp' && argv.length === 1) {
    const { serveMcp } = await import('./mcp-server');
    return serveMcp(process.env);
  }
  return runCli(argv);
}
