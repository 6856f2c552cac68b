import { writeFileSync } from 'node:fs';
import { openApiDocument } from '@/lib/api/openapi';

// Writes the OpenAPI document to the file named on the command line, for openapi-typescript.
const [target] = process.argv.slice(2);
if (!target) throw new Error('Usage: tsx scripts/api-client-check/write-openapi.ts <file.json>');
writeFileSync(target, JSON.stringify(openApiDocument(), null, 2));
