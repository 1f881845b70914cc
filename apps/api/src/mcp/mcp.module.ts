import { Module } from '@nestjs/common';
import { McpController } from './mcp.controller';

/** MCP over HTTP at /api/mcp: the agent tools of apps/agent, served to clients with a token and a URL. */
@Module({ controllers: [McpController] })
export class McpModule {}
