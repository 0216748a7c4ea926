import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { COUNTRIES } from '../places/countries.js';
import { searchQuerySchema } from '../query/params.js';

/** A reference to a schema of the document's components. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** An answer that is a problem document. */
export const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

/**
 * Answers any operation may get from the HTTP layer before its route runs: the request line and headers over the
 * parser's limit (a long `cursor` or `q` with other parameters reaches it) are refused as a problem.
 */
const COMMON_ANSWERS = { 431: problem('Request line and headers over 16 KiB (`headers-too-large`)') };

type Operation = { responses?: Record<string, unknown> };

/** Every operation of the paths with the common answers it does not declare itself. */
export function withCommonAnswers<P extends Record<string, Record<string, unknown>>>(paths: P): P {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, op]) => {
          const operation = op as Operation;
          if (!operation?.responses) return [method, op];
          return [
            method,
            { ...operation, responses: { ...operation.responses, ...COMMON_ANSWERS, ...operation.responses } },
          ];
        }),
      ),
    ]),
  ) as P;
}

/** A zod schema as the document's JSON Schema, of what a request sends (`input`) or an answer holds (`output`). */
export const schemaOf = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/** An answer in JSON of `schema`. */
export const json = (description: string, schema: unknown) => ({
  description,
  content: { 'application/json': { schema } },
});

/** An operation that takes a host key (or the admin token) as a bearer token. */
export const bearer = [{ bearerAuth: [] }];

/** A request body in JSON of `schema`. */
export const body = (schema: unknown, required = true) => ({ required, content: { 'application/json': { schema } } });

/** An object holding one list, `{ [name]: [items…] }`, as the listings of a key's things answer. */
export const listOf = (name: string, items: unknown) => ({
  type: 'object',
  required: [name],
  properties: { [name]: { type: 'array', items } },
});

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenAPI paths the routes declared beside themselves (`documented`), for the document at /api/openapi.json. */
    openApiPaths: Record<string, unknown>;
  }
}

/** Declares OpenAPI paths beside the routes that answer them; the document (openapi.ts) takes every one. */
export function documented(app: FastifyInstance, paths: Record<string, unknown>): void {
  if (!app.hasDecorator('openApiPaths')) app.decorate('openApiPaths', {});
  Object.assign(app.openApiPaths, paths);
}

/** A path parameter. */
export const inPath = (name: string, schema: Record<string, unknown>) => ({ name, in: 'path', required: true, schema });
export const COUNTRY_IN_PATH = inPath('country', { enum: [...COUNTRIES] });
export const ID_IN_PATH = inPath('id', { type: 'string' });

type JsonSchema = { anyOf?: JsonSchema[]; type?: string; items?: { enum?: unknown[] }; description?: string };

/**
 * A list parameter of the grammar (a comma list, or the parameter repeated; its items' values enumerated) as OpenAPI
 * serialises one: an array in `style: form, explode: false` (`topic=ai-ml,data`). Other parameters as they are.
 */
const queryParameter = (name: string, required: boolean, s: JsonSchema) => {
  const list = s.anyOf?.find((branch) => branch.type === 'array' && branch.items?.enum);
  if (!list) return { name, in: 'query', required, schema: s };
  const description = `${s.description ? `${s.description}. ` : ''}Any of these values, as a comma list (${name}=a,b) or the parameter repeated (${name}=a&${name}=b).`;
  return {
    name,
    in: 'query',
    required,
    style: 'form',
    explode: false,
    description,
    schema: { type: 'array', items: list.items },
  };
};

/** The query parameters of a schema, as OpenAPI lists them. */
export const queryParameters = (schema: z.ZodType) => {
  const jsonSchema = schemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(jsonSchema.properties ?? {}).map(([name, s]) =>
    queryParameter(name, jsonSchema.required?.includes(name) ?? false, s),
  );
};

/** The query grammar's parameters (query/params.ts), which every output of a query takes. */
export const GRAMMAR_PARAMETERS = queryParameters(searchQuerySchema);
