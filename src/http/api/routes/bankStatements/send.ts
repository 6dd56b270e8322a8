import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import type { StatementFile } from '../../../../modules/statements/service.js';

/** The 200 answer of a statement or asset: the file, as the reference declares it (application/octet-stream). */
export const STATEMENT_FILE_RESPONSE = (description: string) => ({
  description,
  content: { 'application/octet-stream': { schema: Type.String({ format: 'binary', description, examples: ['%PDF-1.3\n%ÿÿÿÿ\n…'] }) } },
});

/** Sends a statement or asset file as an attachment named after it, in the reference's media type unless told another. */
export function sendStatementFile(reply: FastifyReply, file: StatementFile, mediaType = 'application/octet-stream'): FastifyReply {
  return reply
    .type(mediaType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(file.content);
}
