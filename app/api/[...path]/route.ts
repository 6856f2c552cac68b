import { unknownPath } from '@/lib/server/platform/http/endpoint';

export const dynamic = 'force-dynamic';

// Any path under /api that no route serves, with any method: a JSON 404 a client can read.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = unknownPath();
