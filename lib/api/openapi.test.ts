import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi';
import { ROUTE_LIST } from './routes';

const API_DIR = path.join(process.cwd(), 'app/api');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === 'route.ts' ? [full] : [];
  });
}

/** `app/api/plans/[id]/route.ts` → `/api/plans/{id}`; the catch-all (404/405 for the rest) is not an operation. */
function openApiPath(file: string): string | null {
  const segments = path.relative(path.join(process.cwd(), 'app'), path.dirname(file)).split(path.sep);
  if (segments.some((segment) => segment.startsWith('[...'))) return null;
  return `/${segments.map((segment) => segment.replace(/^\[(\w+)\]$/, '{$1}')).join('/')}`;
}

/** The HTTP methods a route file exports, read from its text as Next reads its exports. */
function exportedMethods(text: string): string[] {
  return METHODS.filter((method) => new RegExp(`export\\s+(const|async\\s+function|function)\\s+${method}\\b`).test(text));
}

describe('the route table', () => {
  it('declares exactly the route files and methods under app/api', () => {
    const onDisk = routeFiles(API_DIR).flatMap((file) => {
      const route = openApiPath(file);
      return route ? exportedMethods(readFileSync(file, 'utf8')).map((method) => `${method} ${route}`) : [];
    });
    const declared = ROUTE_LIST.map((spec) => `${spec.method.toUpperCase()} ${spec.path}`);
    expect(onDisk.length).toBeGreaterThan(40);
    expect([...onDisk].sort()).toEqual([...declared].sort());
  });

  it('answers 405 JSON for every other method, in each route file that declares them', () => {
    for (const file of routeFiles(API_DIR)) {
      const text = readFileSync(file, 'utf8');
      const refused = /export const \{ ([A-Z, ]+) \} = notAllowed\('([^']+)'\)/.exec(text);
      if (!refused) continue;
      expect(refused[2], file).toBe(openApiPath(file));
      expect([...exportedMethods(text), ...refused[1].split(', ')].sort(), file).toEqual([...METHODS].sort());
    }
  });

  it('is called in full by the typed client that npm test checks against the generated types', () => {
    const client = readFileSync(path.join(process.cwd(), 'scripts/api-client-check/client.mts'), 'utf8');
    for (const spec of ROUTE_LIST) expect(client, spec.operationId).toContain(`call('${spec.method}', '${spec.path}'`);
  });

  it('has one operationId per operation', () => {
    const ids = ROUTE_LIST.map((spec) => spec.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('the OpenAPI document', () => {
  const document = openApiDocument() as OpenAPIV3_1.Document;
  const operations = Object.entries(document.paths ?? {}).flatMap(([route, item]) =>
    Object.entries(item ?? {})
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ route, method, operation: operation as OpenAPIV3_1.OperationObject })),
  );

  it('is valid OpenAPI 3.1 under an independent validator', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('describes every operation of the table, each with an operationId and a schema for every status but 204', () => {
    expect(operations.map(({ operation }) => operation.operationId).sort()).toEqual(ROUTE_LIST.map((spec) => spec.operationId).sort());
    for (const { route, method, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const content = (response as OpenAPIV3_1.ResponseObject).content;
        if (status === '204') expect(content, `${method} ${route} ${status}`).toBeUndefined();
        else expect(Object.values(content ?? {})[0]?.schema, `${method} ${route} ${status}`).toBeTruthy();
      }
    }
  });

  it('types the tasks in plan responses and advertises no generated id or clock default', () => {
    const plan = (document.paths?.['/api/plans/{id}']?.get?.responses?.['200'] as OpenAPIV3_1.ResponseObject).content?.['application/json'].schema as OpenAPIV3_1.SchemaObject;
    const tasks = (plan.properties?.plan as OpenAPIV3_1.SchemaObject).properties?.planned_tasks as OpenAPIV3_1.ArraySchemaObject;
    expect((tasks.items as OpenAPIV3_1.SchemaObject).required).toEqual(expect.arrayContaining(['task_id', 'dependencies', 'execution_type']));
    const text = JSON.stringify(document);
    expect(text).not.toMatch(/"default":"[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(text).not.toMatch(/"default":"\d{4}-\d{2}-\d{2}T/);
  });

  it('documents the Behavior Controller errors in seed 000 protocol shape', () => {
    const bad = document.paths?.['/api/behavior-controller/process-phase-1-task']?.post?.responses?.['400'] as OpenAPIV3_1.ResponseObject;
    expect(bad.content?.['application/json'].schema).toMatchObject({ properties: { success: { const: false }, error: { type: 'string' } } });
  });
});
