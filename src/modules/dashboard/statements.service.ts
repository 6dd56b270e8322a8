/**
 * Statement files from a customer's page: the catalogue institutions the customer may upload for, and the upload
 * itself through the API's own service (the same readers, limits, refusals and storing), answered as Connect
 * answers an upload (StatementUploaded) but without Connect's webhook, as no Connect session asked for it.
 */
import type { Runtime } from '../../platform/dependencies.js';
import type { Engine } from '../aggregation/engine.js';
import { accountSummary } from '../aggregation/records.js';
import { type StatementUploadInput, uploadStatementFile } from '../aggregation/statements.service.js';
import { customerMayUseInstitution, getCustomerForPartner } from '../customers/service.js';
import { getInstitution, searchInstitutions } from '../institutions/service.js';

/** Institutions of the catalogue matching `search` (all without one), best first: for a testing customer only the test institutions it may use. */
export async function statementInstitutions(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string,
  query: { search?: string; limit: number },
) {
  const customer = await getCustomerForPartner(runtime.database.kysely, partnerId, customerId);
  const page = await searchInstitutions(runtime.database, {
    search: query.search?.trim() || undefined,
    start: 1,
    limit: query.limit,
    // Active customers may use every institution: no filter to run over the catalogue.
    allow: customer.type === 'testing' ? (id) => customerMayUseInstitution(customer, id) : undefined,
  });
  return { found: page.found, moreAvailable: page.moreAvailable, institutions: page.institutions.map((row) => ({ id: row.id, name: row.name })) };
}

/** Uploads a statement file for the partner's customer at the institution, as the API does (404 for another partner's customer). */
export async function uploadCustomerStatement(
  engine: Engine,
  target: Pick<StatementUploadInput, 'partnerId' | 'customerId' | 'institutionId'>,
  upload: Omit<StatementUploadInput, 'partnerId' | 'customerId' | 'institutionId'>,
) {
  const result = await uploadStatementFile(engine, { ...upload, ...target });
  const institution = await getInstitution(engine.runtime.database, result.institutionId);
  return {
    institutionLoginId: String(result.institutionLoginId),
    institution: { id: institution.id, name: institution.name },
    accounts: result.accounts.map(accountSummary),
    transactionsAdded: result.transactionsAdded,
    transactionsAlreadyPresent: result.transactionsAlreadyPresent,
    transactionsMatched: result.transactionsMatched,
    problems: result.problems,
  };
}
