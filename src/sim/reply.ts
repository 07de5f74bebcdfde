import type { Readable } from 'node:stream';

/** What a simulator route answers: a status, a JSON body or a stream, and headers. */
export type Reply = { status?: number; body?: unknown; headers?: Record<string, string>; stream?: Readable };
