import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { TEST_DATABASE_URL, testDialect } from '../helpers/db.js';

/**
 * Migrations of one schema never look at the database's other schemas: a client that drops or changes its own
 * schema at that moment made Kysely's catalogue-wide lookup fail (3F000 "schema ... does not exist"), and a
 * service started on a shared database did not start.
 */
describe.runIf(testDialect() === 'postgres')('a migration beside other clients of the same database', () => {
  it('succeeds while another client creates and drops schemas with tables all along', { timeout: 120_000 }, async () => {
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    const churnPrefix = `t_churn_${randomBytes(3).toString('hex')}_`;
    let churning = true;
    let churned = 0;
    const churn = (async () => {
      for (let i = 0; churning; i++) {
        const name = `${churnPrefix}${i}`;
        await admin.query(`create schema ${name}; create table ${name}.a (x integer, y text, z integer)`);
        await admin.query(`drop schema ${name} cascade`);
        churned++;
      }
    })();
    const schemas = Array.from({ length: 4 }, () => `t_${randomBytes(6).toString('hex')}`);
    const outcomes: string[] = [];
    try {
      for (const schema of schemas) {
        await admin.query(`create schema ${schema}`);
        const database = openDatabase({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema, poolSize: 2 });
        try {
          await migrateToLatest(database);
          outcomes.push('migrated');
        } catch (error) {
          outcomes.push(String(error));
        } finally {
          await database.close();
        }
      }
    } finally {
      churning = false;
      await churn;
      for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
    expect(churned).toBeGreaterThan(0);
    expect(outcomes).toEqual(schemas.map(() => 'migrated'));
  });
});
