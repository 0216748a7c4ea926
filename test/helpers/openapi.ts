import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { hostileString } from './fuzz.js';

/**
 * Reading an OpenAPI 3.1 document the way a contract fuzzer does (Schemathesis' checks, by hand): requests made from
 * its declared parameters and bodies, valid and invalid, and each answer checked against what it declares.
 */

export type Schema = Record<string, any>;
export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema: Schema;
}
export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: Schema }> }>;
  security?: Record<string, string[]>[];
}

export function operationsOf(document: Schema): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      operations.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], ...op });
    }
  }
  return operations;
}

/** `#/components/schemas/X` → its schema. */
export const resolve = (document: Schema, schema: Schema): Schema => {
  if (typeof schema?.$ref !== 'string') return schema;
  const target = schema.$ref
    .slice(2)
    .split('/')
    .reduce((node: any, key: string) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  return resolve(document, target);
};

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

/** A JSON Schema 2020-12 validator of the document's schemas, its `$ref`s resolved within the document. */
export function schemaValidator(document: Schema): (schema: Schema, value: unknown) => string | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const cache = new WeakMap<Schema, ValidateFunction>();
  return (schema, value) => {
    let validate = cache.get(schema);
    if (!validate) {
      validate = ajv.compile({ ...schema, components: document.components });
      cache.set(schema, validate);
    }
    return validate(value) ? undefined : ajv.errorsText(validate.errors, { separator: '; ' });
  };
}

const SAFE_STRING = fc.string({ unit: 'grapheme-ascii', maxLength: 20 });

/** A value the schema accepts (as nearly as a generator can: patterns and formats are honoured). */
export function validValue(document: Schema, input: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(document, input);
  if (!schema || Object.keys(schema).length === 0) return fc.jsonValue({ maxDepth: 1 });
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches) return fc.oneof(...branches.map((b: Schema) => validValue(document, b, depth + 1)));
  if (schema.allOf) return validValue(document, schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000, noNaN: true });
    case 'array': {
      const maxLength = Math.min(schema.maxItems ?? 3, 3);
      return fc.array(validValue(document, schema.items ?? {}, depth + 1), {
        minLength: Math.min(schema.minItems ?? 0, maxLength),
        maxLength,
      });
    }
    case 'object': {
      const properties: Record<string, Schema> = schema.properties ?? {};
      const required = new Set<string>(schema.required ?? []);
      const record = Object.fromEntries(
        Object.entries(properties)
          .filter(([name]) => depth < 3 || required.has(name))
          .map(([name, s]) => [name, validValue(document, s, depth + 1)]),
      );
      return fc.record(record, { requiredKeys: [...required].filter((name) => name in properties) });
    }
    default:
      return validString(schema);
  }
}

const isoDate = fc
  .date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2028-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

function validString(schema: Schema): fc.Arbitrary<string> {
  const cut = (s: string) => s.slice(0, schema.maxLength ?? s.length);
  if (schema.format === 'date') return isoDate.map((s) => s.slice(0, 10));
  if (schema.format === 'date-time') return isoDate;
  if (schema.format === 'uri') return fc.constantFrom('https://example.org/event', 'http://127.0.0.1/x.ics');
  if (schema.pattern) {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity));
  }
  const min = schema.minLength ?? 0;
  const longest = schema.maxLength === undefined ? [] : [fc.constant('x'.repeat(schema.maxLength))];
  return fc.oneof(
    { weight: 6, arbitrary: SAFE_STRING.map((s) => cut(s.padEnd(min, 'x'))) },
    ...longest.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}

/** A value the schema may refuse: hostile text, wrong types, one past its bounds. */
export function invalidValue(schema: Schema): fc.Arbitrary<unknown> {
  const beyond =
    schema?.maxLength === undefined ? [] : [fc.constant('x'.repeat(Math.min(schema.maxLength + 1, 20_000)))];
  return fc.oneof(
    hostileString({ surrogates: false }),
    fc.constantFrom('', ' ', '-1', '0', '1e309', 'null', 'true', '[]', '{}', '%', '9999-99-99'),
    fc.jsonValue({ maxDepth: 2 }),
    ...beyond,
  );
}

/**
 * How a parameter's value goes into a URL (`style: form, explode: false` arrays as comma lists). Objects as JSON:
 * fast-check makes some without a prototype, which String() cannot convert.
 */
export function serialise(value: unknown): string {
  if (Array.isArray(value)) return value.map(serialise).join(',');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `type/subtype` of a Content-Type, lower case. */
export const mediaType = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();
