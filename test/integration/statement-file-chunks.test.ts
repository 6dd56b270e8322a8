import { type Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { contentDigest, keepStatementFile, STATEMENT_FILE_CHUNK, writeStatementFile } from '../../src/modules/aggregation/statement-files.service.js';
import { uploadStatementFile } from '../../src/modules/aggregation/statements.service.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { migrations } from '../../src/platform/db/migrations/index.js';
import { csvStatementFile } from '../helpers/statement-files.js';
import { FINBANK, statementUploads } from '../helpers/statement-uploads.js';

const asset = (customerId: string, id: string) => `/aggregation/v1/customers/${customerId}/assets/${encodeURIComponent(id)}`;

/**
 * Kept statement files are stored in pieces, each written and read in a turn of its own (a whole 10 MB file in one
 * statement held the event loop), and come back byte for byte; migration 0045 moved files kept before into pieces.
 * The pieces are written before the upload's last transaction, each in a transaction of its own, and that last
 * transaction marks the file stored (migration 0046): until then it is offered to nobody.
 */
describe('kept statement files in pieces', () => {
  const t = statementUploads('2026-04-15T12:00:00Z');
  // Rows of about 200 bytes: three and a bit pieces.
  const file = csvStatementFile(Math.ceil((3.2 * STATEMENT_FILE_CHUNK) / 200), 200);
  const pieces = Math.ceil(Buffer.byteLength(file) / STATEMENT_FILE_CHUNK);
  const raw = () => t.ctx.runtime.database.kysely;
  const stored = async (id: string) => {
    const row = await raw().selectFrom('statement_files').select(['size', 'content', 'stored_at']).where('id', '=', id).executeTakeFirstOrThrow();
    const chunks = await raw().selectFrom('statement_file_chunks').select(['seq', 'content']).where('file_id', '=', id).orderBy('seq').execute();
    return {
      size: Number(row.size),
      rowContent: row.content.byteLength,
      stored: row.stored_at !== null,
      seqs: chunks.map((c) => c.seq),
      bytes: Buffer.concat(chunks.map((c) => Buffer.from(c.content))),
    };
  };

  it('writes a file larger than a piece as its pieces, in order, and answers it again byte for byte, once per content', async () => {
    expect(pieces).toBe(4);
    const customerId = await t.customer();
    const upload = await t.uploadOk(customerId, file, { type: 'text/csv' });
    const kept = await stored(upload.fileAssetId);
    expect(kept).toMatchObject({ size: Buffer.byteLength(file), rowContent: 0, seqs: [0, 1, 2, 3], stored: true });
    expect(kept.bytes.toString()).toBe(file);
    const answer = await t.ctx.app.inject({ method: 'GET', url: asset(customerId, upload.fileAssetId), headers: t.partner.headers });
    expect(answer.statusCode).toBe(200);
    expect(answer.rawPayload.equals(Buffer.from(file))).toBe(true);
    // The same file again is the same asset, and its pieces are not written twice.
    expect((await t.uploadOk(customerId, file, { type: 'text/csv' })).fileAssetId).toBe(upload.fileAssetId);
    expect((await stored(upload.fileAssetId)).seqs).toEqual([0, 1, 2, 3]);
  });

  it('writes the pieces before the last transaction: an upload whose last transaction fails leaves them unoffered, and the same file again completes the file', async () => {
    const customerId = await t.customer();
    const engine = t.ctx.app.engine;
    const input = {
      partnerId: t.partner.partnerId,
      customerId,
      institutionId: FINBANK,
      file: new Uint8Array(Buffer.from(file)),
      contentType: 'text/csv',
    };
    let fileId: string | undefined;
    const failed = await uploadStatementFile(engine, input, async (_tx, result) => {
      fileId = result.fileAssetId;
      throw new Error('the last transaction fails');
    }).catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toBe('the last transaction fails');
    // Its pieces were committed before; the file is not marked stored, so nobody is offered it.
    const left = await stored(fileId!);
    expect(left).toMatchObject({ stored: false, seqs: [0, 1, 2, 3] });
    const unoffered = await t.ctx.app.inject({ method: 'GET', url: asset(customerId, fileId!), headers: t.partner.headers });
    expect(unoffered.statusCode).toBe(404);
    expect(unoffered.json()).toMatchObject({ code: '16202' });

    // As a process that died while writing would leave it: two pieces of four.
    await raw().deleteFrom('statement_file_chunks').where('file_id', '=', fileId!).where('seq', 'in', [1, 3]).execute();
    const again = await t.uploadOk(customerId, file, { type: 'text/csv' });
    expect(again.fileAssetId).toBe(fileId);
    const kept = await stored(fileId!);
    expect(kept).toMatchObject({ stored: true, seqs: [0, 1, 2, 3] });
    expect(kept.bytes.toString()).toBe(file);
    const answer = await t.ctx.app.inject({ method: 'GET', url: asset(customerId, fileId!), headers: t.partner.headers });
    expect(answer.statusCode).toBe(200);
    expect(answer.rawPayload.equals(Buffer.from(file))).toBe(true);
  });

  it('writes one file when uploads of the same content write it at once: one row, every piece once, the same asset for all', async () => {
    const customerId = await t.customer();
    const content = new Uint8Array(Buffer.from(`${file}\n\n`));
    const at = Math.floor(t.ctx.clock.now() / 1000);
    const sha256 = await contentDigest(content);
    const writing = { partnerId: t.partner.partnerId, customerId: Number(customerId), format: 'csv' as const, content, sha256, now: at };
    const ids = await Promise.all(Array.from({ length: 20 }, () => writeStatementFile(t.ctx.runtime.database, writing)));
    expect(new Set(ids).size).toBe(1);
    const rows = await raw().selectFrom('statement_files').select('id').where('customer_id', '=', Number(customerId)).execute();
    expect(rows.map((r) => r.id)).toEqual([ids[0]]);
    expect(await stored(ids[0]!)).toMatchObject({ stored: false, seqs: [0, 1, 2, 3] });
    await t.ctx.runtime.database.kysely.transaction().execute((tx) => keepStatementFile(tx, { fileId: ids[0]!, periods: [], now: at }));
    const kept = await stored(ids[0]!);
    expect(kept.stored).toBe(true);
    expect(kept.bytes.equals(Buffer.from(content))).toBe(true);
    // A stored file is written no more: the same content again answers it at once.
    expect(await writeStatementFile(t.ctx.runtime.database, writing)).toBe(ids[0]);
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
    // Kept before migration 0046: stored.
    expect(kept).toMatchObject({ rowContent: 0, seqs: [0, 1, 2, 3], stored: true });
    expect(kept.bytes.toString()).toBe(`${file}\n`);
    const answer = await t.ctx.app.inject({ method: 'GET', url: asset(customerId, upload.fileAssetId), headers: t.partner.headers });
    expect(answer.body).toBe(`${file}\n`);
  });
});
