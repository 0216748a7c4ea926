import { z } from 'zod';

/**
 * What the SDK is given for a tool's input: an object schema that takes any arguments, carrying the tool's own input
 * schema as its JSON Schema (zod metadata). The SDK lists a tool's input as the JSON Schema of the zod schema it
 * holds, and validates arguments with that schema before the handler, answering a failure in words of its own
 * (`MCP error -32602: Input validation error: … Invalid option …`); this way `tools/list` shows the tool's exact
 * schema (draft-7, as the SDK renders it) and the tool validates its arguments itself, in the words of every other
 * argument error.
 */
export function publishedInput(schema: z.ZodObject): z.ZodObject {
  const { $schema: _, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', target: 'draft-7' });
  // The loose object's own `additionalProperties: {}` gives way to the tool's (or to none).
  return z.looseObject({}).meta({ additionalProperties: undefined, ...jsonSchema });
}

/** The tool definitions with each input schema published by publishedInput, built once for every server. */
export function withPublishedInputs<T extends Record<string, { inputSchema: z.ZodObject }>>(
  tools: T,
): { [K in keyof T]: Omit<T[K], 'inputSchema'> & { inputSchema: z.ZodObject } } {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [name, { ...tool, inputSchema: publishedInput(tool.inputSchema) }]),
  ) as { [K in keyof T]: Omit<T[K], 'inputSchema'> & { inputSchema: z.ZodObject } };
}
