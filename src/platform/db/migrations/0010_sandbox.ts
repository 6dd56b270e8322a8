import type { Kysely } from 'kysely';

/**
 * Sandbox controls: an error state a developer puts an institution login into (docs/sandbox.md). While it is set,
 * every refresh of the login fails with it, as if the institution answered so; signing in again (Connect Fix)
 * or clearing it through the sandbox API removes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('institution_logins').addColumn('sandbox_failure_code', 'integer').execute();
  await db.schema.alterTable('institution_logins').addColumn('sandbox_failure_message', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('institution_logins').dropColumn('sandbox_failure_message').execute();
  await db.schema.alterTable('institution_logins').dropColumn('sandbox_failure_code').execute();
}
