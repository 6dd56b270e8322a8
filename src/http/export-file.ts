import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { PreparedExport } from '../modules/exports/service.js';

/** Streams a prepared export as an attachment, a page of transactions at a time. */
export function sendExport(reply: FastifyReply, prepared: PreparedExport): FastifyReply {
  return reply
    .type(prepared.mediaType)
    .header('content-disposition', `attachment; filename="${prepared.filename}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(Readable.from(prepared.pieces(), { objectMode: false }));
}
