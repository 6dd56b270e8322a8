/**
 * The catalogue's side of the connector sources (src/connectors/registry.ts): the institutions they bring, added
 * once per database, and what the catalogue stores about reaching an institution through a source, which a source
 * asks for by its name (SourceCatalogue).
 */
import type { OfxInstitutionConfig } from '../../connectors/ofx/index.js';
import { SOURCES } from '../../connectors/registry.js';
import { type ConnectorSource, DEFAULT_SOURCE_PRODUCTS, type SourceCatalogue, type SourceInstitution, type SourceProduct } from '../../connectors/source.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { findListedConnection } from './listed.repository.js';
import { findOfxServer } from './ofx-directory.repository.js';
import { bumpCatalogVersion, insertInstitutionRowIfAbsent, institutionExists } from './repository.js';
import type { InstitutionTable, OfxServerTable } from './table.js';

/** What a catalogue row may say beyond a SourceInstitution (the OFX directory's entries have addresses and phones). */
export interface InstitutionContact {
  phone?: string;
  email?: string;
  addressLine1?: string;
  addressLine2?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-3: USA (the default), CAN, whose institutions count in Canadian dollars, or another country. */
  country?: string;
  /** ISO 4217, where the country alone does not say it (USD in the USA, CAD in Canada). */
  currency?: string;
}

/**
 * The product flags of an institution a source serves: exactly the source's products (SourceProduct) besides
 * transaction aggregation; the products that need more than a source gives (reports, statements) stay off.
 */
export function sourceProductFlags(
  products: readonly SourceProduct[] = DEFAULT_SOURCE_PRODUCTS,
): Pick<InstitutionTable, 'ach' | 'aha' | 'avail_balance' | 'account_owner' | 'loan_payment_details' | 'ps_ach' | 'ps_aha'> {
  const has = (p: SourceProduct) => (products.includes(p) ? 1 : 0);
  return {
    ach: has('ach'),
    aha: has('aha'),
    avail_balance: has('availBalance'),
    account_owner: has('accountOwner'),
    loan_payment_details: has('loanPaymentDetails'),
    ps_ach: products.includes('ach') ? 'online' : 'unsupported',
    ps_aha: products.includes('aha') ? 'online' : 'unsupported',
  };
}

/** The catalogue row of an institution a source serves: a bank offering transaction aggregation and the source's products, online. */
export function sourceInstitutionRow(
  entry: SourceInstitution,
  version: number,
  contact: InstitutionContact = {},
  products: readonly SourceProduct[] = DEFAULT_SOURCE_PRODUCTS,
): InstitutionTable {
  const home = entry.homeUrl;
  const country = contact.country ?? 'USA';
  return {
    id: entry.id,
    name: entry.name,
    display_name: entry.name,
    account_type_description: 'Banking',
    class: 'banking',
    status: 'online',
    url_home_app: home,
    url_logon_app: home,
    url_product_app: home,
    url_forgot_password: home,
    url_online_registration: home,
    oauth_enabled: 0,
    phone: contact.phone ?? '',
    email: contact.email ?? '',
    currency: contact.currency ?? (country === 'CAN' ? 'CAD' : 'USD'),
    special_text: entry.signInHelp,
    special_instructions: null,
    special_instructions_title: null,
    time_zone: null,
    new_institution_id: null,
    oauth_institution_id: null,
    requires_service_callout: 0,
    external_data: null,
    trans_agg: 1,
    voa: 0,
    voi: 0,
    state_agg: 0,
    student_loan_data: 0,
    liability_data: 0,
    bill_pay_data: 0,
    address_line1: contact.addressLine1 ?? '',
    address_line2: contact.addressLine2 ?? '',
    city: contact.city ?? '',
    state: contact.state ?? '',
    postal_code: contact.postalCode ?? '',
    country,
    primary_color: '#2f5d8a',
    ps_overall: 'online',
    ps_trans_agg: 'online',
    ps_voa: 'unsupported',
    ps_voi: 'unsupported',
    ps_state_agg: 'unsupported',
    ...sourceProductFlags(products),
    search_rank: entry.searchRank ?? 0,
    changed_version: version,
  };
}

/**
 * Adds the institutions each source brings that the catalogue lacks: one transaction (and one catalogue version)
 * per source with any to add. An institution already there, under the source or not, is left as it is.
 */
export async function ensureSourceInstitutions(database: Database, sources: readonly ConnectorSource[] = SOURCES): Promise<void> {
  const db = database.kysely;
  for (const source of sources) {
    const missing: SourceInstitution[] = [];
    for (const entry of source.institutions) if (!(await institutionExists(db, entry.id))) missing.push(entry);
    if (missing.length === 0) continue;
    await db.transaction().execute(async (tx) => {
      const version = await bumpCatalogVersion(tx);
      for (const entry of missing) await insertInstitutionRowIfAbsent(tx, sourceInstitutionRow(entry, version, {}, source.products));
    });
  }
}

/** An OFX server as its connector takes it. */
function ofxConnection(server: OfxServerTable): OfxInstitutionConfig {
  return {
    url: server.url,
    fid: server.fid,
    org: server.org,
    ...(server.broker_id ? { brokerId: server.broker_id } : {}),
    ...(server.app_id && server.app_ver ? { appId: server.app_id, appVer: server.app_ver } : {}),
    ...(server.ofx_version ? { version: Number(server.ofx_version) } : {}),
  };
}

/** What the catalogue stores about reaching its institutions through a source, by the source's name (others: listed.service.ts). */
const CONNECTIONS: Readonly<Record<string, (db: Executor, institutionId: number) => Promise<unknown>>> = {
  // The servers of the OFX directory's institutions and of those operators add (ofx-directory.service.ts).
  ofx: async (db, institutionId) => {
    const server = await findOfxServer(db, institutionId);
    return server ? ofxConnection(server) : undefined;
  },
};

/** The catalogue as the connector sources see it. */
export function sourceCatalogue(database: Database): SourceCatalogue {
  return {
    async connection(institutionId, source) {
      if (Object.hasOwn(CONNECTIONS, source)) return CONNECTIONS[source]!(database.kysely, institutionId);
      const listed = await findListedConnection(database.kysely, institutionId, source);
      return listed === undefined ? undefined : JSON.parse(listed);
    },
  };
}
