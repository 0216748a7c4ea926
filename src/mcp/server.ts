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
 * One JSON Schema validator (an Ajv instance, costly to build) for all servers instead of one per server. A server
 * only uses it to check what a client answers to a server-initiated request (elicitation), which these tools never make.
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/**
 * A new MCP server (stateless mode: any app node can answer any request). Every tool calls the same use cases as the
 * HTTP routes; only `rsvp` needs a key, which it reads per request from `extra.authInfo` (see caller.ts). The server
 * holds no per-request state, so it can serve request after request (see `McpServerPool`).
 */
export function buildMcpServer(ctx: ServingContext): McpServer {
  sharedValidator ??= new AjvJsonSchemaValidator();
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, jsonSchemaValidator: sharedValidator });
  registerTools(server, ctx, callerOf);
  return server;
}

/**
 * Idle MCP servers, reused across requests: building one (six tools, their schemas and handlers) costs more than
 * answering most calls. A server serves one request at a time — it is taken with `acquire`, connected to that
 * request's own transport (a stateless transport serves one request only), and given back with `release` once the
 * transport is closed. Servers beyond `maxIdle` are dropped, so a burst does not pin memory.
 */
export class McpServerPool {
  private readonly idle: McpServer[] = [];

  constructor(
    private readonly ctx: ServingContext,
    private readonly maxIdle = 32,
  ) {}

  acquire(): McpServer {
    return this.idle.pop() ?? buildMcpServer(this.ctx);
  }

  /** Takes back a server whose transport is closed; one still connected is never handed out again. */
  release(server: McpServer): void {
    if (server.isConnected() || this.idle.length >= this.maxIdle || this.idle.includes(server)) return;
    this.idle.push(server);
  }

  get idleCount(): number {
    return this.idle.length;
  }
}
