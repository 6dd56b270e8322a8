import { type Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { STATEMENT_FILE_CHUNK } from '../../src/modules/aggregation/statement-files.service.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { migrations } from '../../src/platform/db/migrations/index.js';
import { csvStatementFile } from '../helpers/statement-files.js';
import { statementUploads } from '../helpers/statement-uploads.js';

const asset = (customerId: string, id: string) => `/aggregation/v1/customers/${customerId}/assets/${encodeURIComponent(id)}`;

/**
 * Kept statement files are stored in pieces, each written and read in a turn of its own (a whole 10 MB file in one
 * statement held the event loop), and come back byte for byte; migration 0045 moved files kept before into pieces.
 */
describe('kept statement files in pieces', () => {
  const t = statementUploads('2026-04-15T12:00:00Z');
  // Rows of about 200 bytes: three and a bit pieces.
  const file = csvStatementFile(Math.ceil((3.2 * STATEMENT_FILE_CHUNK) / 200), 200);
  const pieces = Math.ceil(Buffer.byteLength(file) / STATEMENT_FILE_CHUNK);
  const raw = () => t.ctx.runtime.database.kysely;
  const stored = async (id: string) => {
    const row = await raw().selectFrom('statement_files').select(['size', 'content']).where('id', '=', id).executeTakeFirstOrThrow();
    const chunks = await raw().selectFrom('statement_file_chunks').select(['seq', 'content']).where('file_id', '=', id).orderBy('seq').execute();
    return {
      size: Number(row.size),
      rowContent: row.content.byteLength,
      seqs: chunks.map((c) => c.seq),
      bytes: Buffer.concat(chunks.map((c) => Buffer.from(c.content))),
    };
  };

  it('writes a file larger than a piece as its pieces, in order, and answers it again byte for byte, once per content', async () => {
    expect(pieces).toBe(4);
    const customerId = await t.customer();
    const upload = await t.uploadOk(customerId, file, { type: 'text/csv' });
    const kept = await stored(upload.fileAssetId);
    expect(kept).toMatchObject({ size: Buffer.byteLength(file), rowContent: 0, seqs: [0, 1, 2, 3] });
    expect(kept.bytes.toString()).toBe(file);
    const answer = await t.ctx.app.inject({ method: 'GET', url: asset(customerId, upload.fileAssetId), headers: t.partner.headers });
    expect(answer.statusCode).toBe(200);
    expect(answer.rawPayload.equals(Buffer.from(file))).toBe(true);
    // The same file again is the same asset, and its pieces are not written twice.
    expect((await t.uploadOk(customerId, file, { type: 'text/csv' })).fileAssetId).toBe(upload.fileAssetId);
    expect((await stored(upload.fileAssetId)).seqs).toEqual([0, 1, 2, 3]);
  });

  it('migration 0045 moves a file kept whole into pieces (and back down), and the asset answers the same bytes', async () => {
    const customerId = await t.customer();
    const upload = await t.uploadOk(customerId, `${file}\n`, { type: 'text/csv' });
    const migrator = new Migrator({
      db: raw() as unknown as Kysely<unknown>,
      provider: { getMigrations: async () => migrations },
      allowUnorderedMigrations: true,
      ...(t.ctx.db.pgSchema ? { migrationTableSchema: t.ctx.db.pgSchema } : {}),
    });
    // Down to before it: the file is whole in its row again, as such a database kept it.
    expect((await migrator.migrateTo('0041_micro_entries')).error).toBeUndefined();
    const whole = await raw().selectFrom('statement_files').select('content').where('id', '=', upload.fileAssetId).executeTakeFirstOrThrow();
    expect(Buffer.from(whole.content).toString()).toBe(`${file}\n`);

    await migrateToLatest(t.ctx.runtime.database);
    const kept = await stored(upload.fileAssetId);
    expect(kept).toMatchObject({ rowContent: 0, seqs: [0, 1, 2, 3] });
    expect(kept.bytes.toString()).toBe(`${file}\n`);
    const answer = await t.ctx.app.inject({ method: 'GET', url: asset(customerId, upload.fileAssetId), headers: t.partner.headers });
    expect(answer.body).toBe(`${file}\n`);
  });
});
