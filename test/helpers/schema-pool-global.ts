import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { TEST_DATABASE_URL } from './db.js';
import { POOL_RUN_ENV, POOLED_PREFIX } from './schema-pool.js';

/** A run's name for its pooled schemas: when it started (so leftovers of a killed run can be told apart), a random part. */
export function schemaPoolRun(): string {
  return `${Math.floor(Date.now() / 1000).toString(36)}r${Math.random().toString(36).slice(2, 8)}`;
}

/** Leftovers of runs started this long ago are dropped: no run lasts so long. */
const STALE_SECONDS = 6 * 3600;

async function dropSchemas(which: (run: string) => boolean): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const names = (await client.query<{ nspname: string }>(`select nspname from pg_namespace where nspname like $1`, [`${POOLED_PREFIX}%`])).rows;
    for (const { nspname } of names) {
      const run = nspname.slice(POOLED_PREFIX.length, nspname.lastIndexOf('_'));
      if (which(run)) await client.query(`drop schema if exists "${nspname}" cascade`);
    }
  } finally {
    await client.end();
  }
}

/**
 * Global setup of the PostgreSQL integration projects (schema-pool.ts): drops the run's pooled schemas once its
 * files are done, and leftovers of runs that were killed long ago.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = (project.config.env as Record<string, string | undefined>)[POOL_RUN_ENV];
  const now = Date.now() / 1000;
  await dropSchemas((other) => {
    const started = Number.parseInt(other.split('r')[0] ?? '', 36);
    return other !== run && Number.isFinite(started) && now - started > STALE_SECONDS;
  });
  return async () => {
    if (run) await dropSchemas((other) => other === run);
  };
}
