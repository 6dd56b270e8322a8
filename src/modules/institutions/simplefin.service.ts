/**
 * The catalogue entry of SimpleFIN Bridge: one institution through which a user reaches the accounts they linked
 * at their bridge (each account names its own bank). Its connector signs in with a setup token.
 */
import type { Database } from '../../platform/db/database.js';
import { ofxInstitutionRow } from './ofx-directory.service.js';
import { bumpCatalogVersion, insertInstitutionRowIfAbsent, institutionExists } from './repository.js';

/** Stable across releases and installations. */
export const SIMPLEFIN_INSTITUTION_ID = 590_000;

/** Adds the SimpleFIN Bridge institution to the catalogue once per database. */
export async function ensureSimplefinInstitution(database: Database): Promise<void> {
  const db = database.kysely;
  if (await institutionExists(db, SIMPLEFIN_INSTITUTION_ID)) return;
  await db.transaction().execute(async (tx) => {
    const version = await bumpCatalogVersion(tx);
    const row = ofxInstitutionRow(SIMPLEFIN_INSTITUTION_ID, 'SimpleFIN Bridge', 'https://beta-bridge.simplefin.org/', {}, version);
    await insertInstitutionRowIfAbsent(tx, {
      ...row,
      special_text:
        'Make a setup token at your SimpleFIN Bridge (Connections, then New app connection) and paste it here. It can be used once; Ledgerlink keeps only the access it grants.',
      email: '',
      search_rank: 1,
    });
  });
}
