import type { Kysely } from 'kysely';

/**
 * Authentication attempts are reserved before a secret is checked, so parallel guesses cannot all be checked while
 * the lock-out is still being counted: the partner's API attempts in progress, and a table of dashboard sign-in
 * throttles (by partner id as typed and by client address), which never lock the API.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('partners')
    .addColumn('auth_pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('partners')
    .addColumn('auth_pending_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('sign_in_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pending_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('blocked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('rounds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_throttle_updated_at').on('sign_in_throttle').column('updated_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_throttle').execute();
  await db.schema.alterTable('partners').dropColumn('auth_pending_at').execute();
  await db.schema.alterTable('partners').dropColumn('auth_pending').execute();
}
