import { Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AgentWork } from '../../../agent/src/agent-work';
import { buildMcpServer } from '../../../agent/src/mcp-server';
import { Agent } from '../auth/access.decorator';
import { Auth, type AuthContext } from '../auth/auth-context';
import { AppConfig } from '../config/app-config';
import { OutsideDocument } from '../openapi/routes';
import { McpSlots } from './mcp-slots';

/** A tool call's arguments are small (a report with its plan, twenty links); JSON-RPC batches are not taken. */
export const MCP_BODY_LIMIT = 256 * 1024;

const OUTSIDE = 'MCP: JSON-RPC over Streamable HTTP (answers JSON or an event stream), described by the Model Context Protocol';

/**
 * MCP over HTTP (extensions.md § 1.5): the same tools and `board://rules` as `board-agent mcp`,
 * built by the same code (apps/agent/src/mcp-server.ts). Stateless: every POST gets a server and
 * a transport of its own (`sessionIdGenerator: undefined`), so any instance answers any request
 * and nothing of a session lives here; the runs an agent holds are read off the board, as a new
 * stdio session does. The tools call this instance's own API over loopback with the caller's
 * token, so every rule, refusal and event is the API's. A long tool call (ask_person) keeps its
 * request open as an event stream with a progress notification on every beat, and ends when the
 * client goes away.
 */
@Controller()
export class McpController {
  private readonly slots: McpSlots;

  constructor(private readonly config: AppConfig) {
    this.slots = new McpSlots(config.SERVICE_MCP_CONCURRENT);
  }

  @Agent()
  @OutsideDocument(OUTSIDE)
  @RouteConfig({ bodyLimit: MCP_BODY_LIMIT })
  @Post('mcp')
  @HttpCode(200)
  async call(@Auth() auth: AuthContext, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const release = this.slots.take(auth.caller.id);
    const beatMs = this.config.SERVICE_MCP_BEAT_MS;
    const work = AgentWork.fromConfig({ url: loopback(request), token: bearer(request) }, beatMs);
    const { server, agent } = buildMcpServer(work, beatMs);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    reply.hijack();
    // The answer is over (sent, or the client went away): the tool calls still running are
    // cancelled (their signal aborts), the run timers stop, the agent's slot is free again.
    reply.raw.once('close', () => {
      release();
      agent.stopBeating();
      void server.close().catch(() => undefined);
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch {
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
    }
  }

  /** No session stream to open or session to end in stateless mode: 405, which clients expect. */
  @Agent()
  @OutsideDocument(OUTSIDE)
  @Get('mcp')
  stream(@Res() reply: FastifyReply): void {
    notAllowed(reply);
  }

  @Agent()
  @OutsideDocument(OUTSIDE)
  @Delete('mcp')
  end(@Res() reply: FastifyReply): void {
    notAllowed(reply);
  }
}

function notAllowed(reply: FastifyReply): void {
  void reply.status(405).header('allow', 'POST').send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server keeps no sessions; send POST.' }, id: null });
}

/** The address this request came in on: the instance itself, whatever the load balancer in front. */
function loopback(request: FastifyRequest): string {
  const { localAddress, localPort } = request.raw.socket;
  const address = localAddress?.replace(/^::ffff:/, '') || '127.0.0.1';
  return `http://${address.includes(':') ? `[${address}]` : address}:${localPort}`;
}

/** The caller's agent token, as the guard read it. */
function bearer(request: FastifyRequest): string {
  return (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '').trim();
}
