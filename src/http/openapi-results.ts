import { PROBLEMS } from '../catalogue/errors.js';
import { ref } from './openapi-common.js';

/**
 * The answers of writes and the problem body, written out beside the generated schemas: their shapes are made by
 * hand in the use cases and src/http/problem.ts, not by a zod schema to generate them from.
 */
export const writeResultSchemas = {
  WriteResult: {
    type: 'object',
    required: ['id', 'url', 'created'],
    properties: {
      id: { type: 'string' },
      url: { type: 'string', format: 'uri' },
      created: { type: 'boolean' },
      warnings: {
        type: 'array',
        description: 'Present when the event was stored but something about it needs the host’s eye.',
        items: ref('WriteWarning'),
      },
    },
  },
  WriteWarning: {
    type: 'object',
    required: ['code', 'field', 'detail'],
    properties: {
      code: {
        enum: ['event-over'],
        description:
          'event-over: the event has already ended (without endAt: three hours after startAt), so listings, ' +
          'feeds, calendars and MCP answers will not show it; it is stored all the same (a host may send its history).',
      },
      field: { enum: ['endAt', 'startAt'], description: 'endAt when the submission has one, else startAt' },
      detail: { type: 'string' },
    },
  },
  CancelResult: {
    type: 'object',
    required: ['id', 'cancelled', 'reversible'],
    properties: {
      id: { type: 'string' },
      cancelled: { const: true },
      reversible: { const: true },
      detail: { type: 'string', description: 'Present when the event was already cancelled.' },
    },
  },
  RestoreResult: {
    type: 'object',
    required: ['id', 'url', 'restored'],
    properties: {
      id: { type: 'string' },
      url: { type: 'string', format: 'uri' },
      restored: { const: true },
      detail: { type: 'string', description: 'Present when the event was not cancelled.' },
    },
  },
  Problem: {
    type: 'object',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string', format: 'uri' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      instance: { type: 'string' },
      code: { type: 'string', enum: Object.keys(PROBLEMS) },
      errors: {
        type: 'array',
        description: 'With code invalid-request: every bad field.',
        items: {
          type: 'object',
          required: ['field', 'message'],
          properties: {
            field: {
              type: 'string',
              description: 'The field or parameter, e.g. `topics[0]`, `events[3].startAt`',
            },
            message: { type: 'string', description: 'What is wrong and what the field accepts' },
            given: {
              type: 'string',
              description: 'The value given, as JSON, cut after 40 characters; absent when the field was missing',
            },
          },
        },
      },
    },
  },
} as const;
