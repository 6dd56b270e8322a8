import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedQuery } from '../../src/platform/db/prepared.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

// A prepared query is compiled once per database and only its parameters change per call: it must return exactly
// what the same query built and run by Kysely returns, whatever the parameters.
describe('preparedQuery', () => {
  let test: TestDatabase;
  const db = () => test.database.kysely;

  beforeAll(async () => {
    test = await createTestDatabase('sqlite');
    for (const id of ['p1', 'p2']) {
      await db()
        .insertInto('partners')
        .values({ id, name: id, plan: 'testdrive', secret_hash: 's', app_key_hash: `h-${id}`, app_key_encrypted: 'e', created_at: 1, updated_at: 1 })
        .execute();
    }
    let n = 0;
    for (const partner of ['p1', 'p2']) {
      for (const type of ['testing', 'active', 'testing'] as const) {
        n += 1;
        await db()
          .insertInto('customers')
          .values({
            partner_id: partner,
            username: `u${n}`,
            first_name: `F${n}`,
            last_name: null,
            phone: null,
            email: null,
            application_id: null,
            type,
            created_at: 100 + n,
            updated_at: 100 + n,
          })
          .execute();
      }
    }
  });
  afterAll(() => test.drop());

  it('returns the same rows as the plain query, for every combination of parameters', async () => {
    const plain = (id: number, partnerId: string) =>
      db().selectFrom('customers').selectAll().where('id', '=', id).where('partner_id', '=', partnerId).execute();
    const prepared = preparedQuery<[id: number, partnerId: string], Awaited<ReturnType<typeof plain>>[number]>(2, (k, id, partnerId) =>
      k.selectFrom('customers').selectAll().where('id', '=', id).where('partner_id', '=', partnerId),
    );
    const ids = (await db().selectFrom('customers').select('id').orderBy('id').execute()).map((r) => r.id);
    expect(ids).toHaveLength(6);
    let found = 0;
    for (const id of [...ids, 1, 0]) {
      for (const partner of ['p1', 'p2', 'nobody']) {
        const rows = await prepared(db(), id, partner);
        expect(rows, `${id} ${partner}`).toEqual(await plain(id, partner));
        found += rows.length;
      }
    }
    // Every customer found exactly once, under its own partner.
    expect(found).toBe(6);
  });

  it('puts each argument where its placeholder is, whatever order the query uses them in, with constants between', async () => {
    // Arguments (type, partnerId, minCreated, limit) used as partner, constant, type, created, limit.
    const plain = (type: 'testing' | 'active', partnerId: string, minCreated: number, limit: number) =>
      db()
        .selectFrom('customers')
        .select(['id', 'username', 'type'])
        .where('partner_id', '=', partnerId)
        .where('username', '!=', 'u3')
        .where('type', '=', type)
        .where('created_at', '>=', minCreated)
        .orderBy('id')
        .limit(limit)
        .execute();
    const prepared = preparedQuery<[type: string, partnerId: string, minCreated: number, limit: number], { id: number; username: string; type: string }>(
      4,
      (k, type, partnerId, minCreated, limit) =>
        k
          .selectFrom('customers')
          .select(['id', 'username', 'type'])
          .where('partner_id', '=', partnerId)
          .where('username', '!=', 'u3')
          .where('type', '=', type)
          .where('created_at', '>=', minCreated)
          .orderBy('id')
          .limit(limit),
    );
    const seen = new Set<string>();
    for (const type of ['testing', 'active'] as const) {
      for (const partner of ['p1', 'p2']) {
        for (const minCreated of [0, 103, 106]) {
          for (const limit of [1, 10]) {
            const rows = await prepared(db(), type, partner, minCreated, limit);
            expect(rows, `${type} ${partner} ${minCreated} ${limit}`).toEqual(await plain(type, partner, minCreated, limit));
            seen.add(JSON.stringify(rows));
          }
        }
      }
    }
    // The parameters really changed the answer (not one compiled answer over and over).
    expect(seen.size).toBeGreaterThan(4);
    // The constant stayed in: u3 (p1's second testing customer) never appears.
    expect(await prepared(db(), 'testing', 'p1', 0, 10)).toEqual([expect.objectContaining({ username: 'u1' })]);
  });

  it('reads whichever database it is given, and a transaction too, with one compiled query', async () => {
    const other = await createTestDatabase('sqlite');
    try {
      await other.database.kysely
        .insertInto('partners')
        .values({ id: 'p1', name: 'elsewhere', plan: 'production', secret_hash: 's', app_key_hash: 'x', app_key_encrypted: 'e', created_at: 1, updated_at: 1 })
        .execute();
      const partnerById = preparedQuery<[id: string], { id: string; name: string; plan: string }>(1, (k, id) =>
        k.selectFrom('partners').select(['id', 'name', 'plan']).where('id', '=', id),
      );
      expect(await partnerById(db(), 'p1')).toEqual([{ id: 'p1', name: 'p1', plan: 'testdrive' }]);
      expect(await partnerById(other.database.kysely, 'p1')).toEqual([{ id: 'p1', name: 'elsewhere', plan: 'production' }]);
      expect(await partnerById(other.database.kysely, 'p2')).toEqual([]);
      expect(await partnerById(db(), 'p2')).toEqual([{ id: 'p2', name: 'p2', plan: 'testdrive' }]);
      // Inside a transaction, it sees the transaction's own uncommitted write.
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('partners').set({ name: 'renamed' }).where('id', '=', 'p2').execute();
          expect(await partnerById(trx, 'p2')).toEqual([{ id: 'p2', name: 'renamed', plan: 'testdrive' }]);
          await trx.updateTable('partners').set({ name: 'p2' }).where('id', '=', 'p2').execute();
        });
    } finally {
      await other.drop();
    }
  });

  it('refuses a build that uses a placeholder twice', async () => {
    const twice = preparedQuery<[id: string], { id: string }>(1, (k, id) => k.selectFrom('partners').select('id').where('id', '=', id).where('name', '=', id));
    await expect(twice(db(), 'p1')).rejects.toThrow(/placeholder 0 must appear exactly once/);
  });

  it('refuses a build that leaves a placeholder out', async () => {
    const unused = preparedQuery<[id: string, name: string], { id: string }>(2, (k, id) => k.selectFrom('partners').select('id').where('id', '=', id));
    await expect(unused(db(), 'p1', 'p1')).rejects.toThrow(/placeholder 1 must appear exactly once/);
    const none = preparedQuery<[id: string], { id: string }>(1, (k) => k.selectFrom('partners').select('id').where('id', '=', 'p1'));
    await expect(none(db(), 'p1')).rejects.toThrow(/placeholder 0 must appear exactly once/);
  });

  it('refuses a placeholder used as SQL text or inside a larger value rather than as a whole value', async () => {
    const asText = preparedQuery<[column: string], { id: string }>(1, (k, column) =>
      k
        .selectFrom('partners')
        .select('id')
        .where(sql.ref(column as string), '=', 'p1'),
    );
    await expect(asText(db(), 'name')).rejects.toThrow(/must appear exactly once/);
    const inside = preparedQuery<[prefix: string], { id: string }>(1, (k, prefix) =>
      k
        .selectFrom('partners')
        .select('id')
        .where('id', 'like', `${prefix as string}%`),
    );
    await expect(inside(db(), 'p')).rejects.toThrow(/must appear exactly once/);
  });
});
