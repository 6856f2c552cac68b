import { z } from 'zod';
import { FORMAT_IDS } from '@/lib/formats/format';
import * as api from './schemas';

// The OpenAPI 3.1 document is generated from the same zod schemas the handlers parse
// with, so the published contract cannot disagree with what the server accepts.

type Io = 'input' | 'output';

function schema(type: z.ZodType, io: Io) {
  return z.toJSONSchema(type, { io, unrepresentable: 'any', target: 'draft-2020-12' });
}

function body(type: z.ZodType) {
  return { required: true, content: { 'application/json': { schema: schema(type, 'input') } } };
}

function reply(description: string, type?: z.ZodType) {
  return type ? { description, content: { 'application/json': { schema: schema(type, 'output') } } } : { description };
}

const errors = (statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      reply(
        {
          400: 'Bad input: malformed JSON, wrong types or unknown fields; `details` lists each path',
          404: 'No such plan or revision',
          409: 'The base revision is no longer the head; `current_revision` says which is',
          413: 'The body or plan is over the size limit',
          415: 'The body is not JSON',
          422: 'The plan cannot be expressed in the requested format (for example a cycle in a step list)',
        }[status] ?? 'Error',
        api.ErrorResponse,
      ),
    ]),
  );

const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const revParam = { name: 'rev', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };

export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Plangate API',
      version: '0.1.0',
      description:
        'Plans are seed 000 TaskData documents. Saving needs the base revision; a stale base is a 409 conflict, never an overwrite.',
    },
    paths: {
      '/api/health': { get: { summary: 'Liveness and database kind', responses: { 200: reply('OK', api.HealthResponse) } } },
      '/api/plans': {
        get: { summary: 'List plans, newest first', responses: { 200: reply('Plans', api.PlanListResponse) } },
        post: {
          summary: 'Create a plan (revision 1)',
          requestBody: body(api.CreatePlanRequest),
          responses: { 201: reply('Created', api.CreatedResponse), ...errors([400, 413, 415]) },
        },
      },
      '/api/plans/{id}': {
        parameters: [idParam],
        get: { summary: 'The head revision of a plan', responses: { 200: reply('Plan', api.PlanResponse), ...errors([404]) } },
        put: {
          summary: 'Save a new revision on top of base_revision',
          requestBody: body(api.SavePlanRequest),
          responses: { 200: reply('Saved', api.SavedResponse), ...errors([400, 404, 409, 413, 415]) },
        },
      },
      '/api/plans/{id}/revisions': {
        parameters: [idParam],
        get: { summary: 'Every revision, oldest first', responses: { 200: reply('Revisions', api.RevisionListResponse), ...errors([404]) } },
      },
      '/api/plans/{id}/revisions/{rev}': {
        parameters: [idParam, revParam],
        get: { summary: 'One revision of a plan', responses: { 200: reply('Plan', api.PlanResponse), ...errors([400, 404]) } },
      },
      '/api/plans/{id}/validate': {
        parameters: [idParam],
        post: { summary: 'Validate the head revision', responses: { 200: reply('Result', api.ValidationResponse), ...errors([404]) } },
      },
      '/api/validate': {
        post: {
          summary: 'Validate a plan without storing it',
          requestBody: body(api.ValidateRequest),
          responses: { 200: reply('Result', api.ValidationResponse), ...errors([400, 413, 415]) },
        },
      },
      '/api/plans/import': {
        post: {
          summary: 'Import a plan from any supported format (detected when format is omitted)',
          requestBody: body(api.ImportRequest),
          responses: { 201: reply('Imported', api.ImportedResponse), ...errors([400, 413, 415]) },
        },
      },
      '/api/plans/{id}/export': {
        parameters: [
          idParam,
          { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: [...FORMAT_IDS], default: 'taskdata' } },
          { name: 'revision', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
        ],
        get: {
          summary: 'The plan as text in the chosen format, as a file download; X-Plangate-Dropped lists what the format cannot carry',
          responses: { 200: { description: 'The plan file' }, ...errors([400, 404, 422]) },
        },
      },
      '/api/openapi.json': { get: { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } } },
    },
  };
}
