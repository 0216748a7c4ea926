import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { ServingContext } from '../context.js';
import { callerOf } from './caller.js';
import { registerTools, TOOLS } from './tools.js';

export const MCP_TOOL_NAMES = Object.keys(TOOLS) as (keyof typeof TOOLS)[];

const SERVER_INFO = { name: 'tech-events', title: 'Tech events in Switzerland, Germany and Austria', version: '1.0.0' };
const INSTRUCTIONS =
  'Search, rank and subscribe to tech events in ch, de and at. Answers carry match reasons; event pages link to the host.';

/** One Ajv validator for all servers: costly to build, and used only for elicitation, which these tools never make. */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/**
 * A stateless MCP server (any node answers any request) whose tools call the HTTP routes' use cases; only `rsvp`
 * needs a key, read per request from `extra.authInfo`. It holds no per-request state, so it is reused.
 */
export function buildMcpServer(ctx: ServingContext): McpServer {
  sharedValidator ??= new AjvJsonSchemaValidator();
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, jsonSchemaValidator: sharedValidator });
  registerTools(server, ctx, callerOf);
  return server;
}

/**
 * Idle MCP servers, reused because building one costs more than most calls. Each serves one request at a time on that
 * request's own transport and is released once it closes; beyond `maxIdle` they are dropped.
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
