import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect } from '../helpers/db.js';
import { poolRun } from '../helpers/schema-pool.js';

/**
 * The PostgreSQL schemas the integration tests use again (test/helpers/schema-pool.ts): a schema comes back empty,
 * with the rows its migrations put in, and one whose objects a test changed is never used again.
 */
describe.runIf(testDialect() === 'postgres' && poolRun() !== undefined)('pooled test schemas', () => {
  const count = async (db: Awaited<ReturnType<typeof createTestDatabase>>, table: string) =>
    Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db.database.kysely)).rows[0]!.n);

  it('come back emptied to what the migrations left', async () => {
    const first = await createTestDatabase('postgres');
    const seeded = await count(first, 'institution_catalog');
    await sql`insert into partners (id, name, secret_hash, app_key_hash, app_key_encrypted, created_at, updated_at)
      values ('1', 'p', 's', 'k', 'e', 0, 0)`.execute(first.database.kysely);
    expect(await count(first, 'partners')).toBe(1);
    await sql`delete from institution_catalog`.execute(first.database.kysely);
    await first.drop();

    const second = await createTestDatabase('postgres');
    try {
      expect(second.pgSchema).toBe(first.pgSchema);
      expect(await count(second, 'partners')).toBe(0);
      expect(await count(second, 'institution_catalog')).toBe(seeded);
    } finally {
      await second.drop();
    }
  });

  it('are dropped, not used again, once a test changed their objects', async () => {
    const first = await createTestDatabase('postgres');
    await sql`create table made_by_a_test (x integer)`.execute(first.database.kysely);
    await first.drop();
    const second = await createTestDatabase('postgres');
    try {
      expect(second.pgSchema).not.toBe(first.pgSchema);
      const left = await sql<{ n: string }>`select count(*) as n from pg_namespace where nspname = ${first.pgSchema!}`.execute(second.database.kysely);
      expect(Number(left.rows[0]!.n)).toBe(0);
    } finally {
      await second.drop();
    }
  });
});
