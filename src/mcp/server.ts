import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { ServingContext } from '../context.js';
import { callerOf } from './caller.js';
import { registerTools, TOOLS } from './tools.js';

export const MCP_TOOL_NAMES = Object.keys(TOOLS) as (keyof typeof TOOLS)[];

const SERVER_INFO = { name: 'tech-events', title: 'Tech events in Switzerland, Germany and Austria', version: '1.0.0' };
const INSTRUCTIONS =
  'Search, rank and subscribe to tech events in ch, de and at. Answers carry match reasons; event pages link to the host.';

/**
 * What builds the MCP servers of one app: a stateless MCP server (any node answers any request) whose tools call the
 * HTTP routes' use cases; only `rsvp` needs a key, read per request from `extra.authInfo`. One is built for each
 * request, as for its transport; they share one Ajv validator, costly to build and used only for elicitation, which
 * these tools never make (made with the first server).
 */
export function mcpServers(ctx: ServingContext): () => McpServer {
  let validator: AjvJsonSchemaValidator | undefined;
  return () => {
    validator ??= new AjvJsonSchemaValidator();
    return buildMcpServer(ctx, validator);
  };
}

function buildMcpServer(ctx: ServingContext, validator: AjvJsonSchemaValidator): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, jsonSchemaValidator: validator });
  registerTools(server, ctx, callerOf);
  // The SDK advertises `tools.listChanged` once a tool is registered; a stateless server keeps no stream to send
  // that notification on, and its tools never change, so it says it does not (capabilities merge before connect).
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}
