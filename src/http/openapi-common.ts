import { z } from 'zod';

/**
 * Answers any operation may get from the HTTP layer before its route runs: the request line and headers over the
 * parser's limit (a long `cursor` or `q` with other parameters reaches it) are refused as a problem.
 */
const COMMON_ANSWERS = {
  431: {
    description: 'Request line and headers over 16 KiB (`headers-too-large`)',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  },
};

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

/** An answer that is a problem document. */
export const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/** An answer in JSON of `schema`. */
export const json = (description: string, schema: unknown) => ({
  description,
  content: { 'application/json': { schema } },
});

/** An operation that takes a host key (or the admin token) as a bearer token. */
export const bearer = [{ bearerAuth: [] }];

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
