/**
 * Portfolios (docs/reports.md, "Portfolios"): every report of a customer carries the customer's portfolio id
 * (service.ts), and a customer has one consumer, so a portfolio is the reports of one customer and its consumer. A
 * portfolio answers the latest report of each type. Ledgerlink's portfolios have one version (PORTFOLIO_VERSION): an
 * id without a version asks for the latest, which is that one.
 */
import type { Static } from 'typebox';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { PortfolioSummary, PortfolioWithConsumer, PortfolioWithFullConsumer } from '../../contract/schemas/portfolios.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getConsumer } from '../consumers/service.js';
import { getCustomerForPartner } from '../customers/service.js';
import * as repo from './repository.js';
import type { ReportListRow } from './table.js';

type Deps = Pick<Runtime, 'database' | 'clock' | 'keys'>;
export type PortfolioSummaryRecord = Static<typeof PortfolioSummary>;
export type PortfolioWithConsumerRecord = Static<typeof PortfolioWithConsumer>;
export type PortfolioWithFullConsumerRecord = Static<typeof PortfolioWithFullConsumer>;

/** The version every portfolio id Ledgerlink gives carries. */
export const PORTFOLIO_VERSION = 1;

const PORTFOLIO_ID = /^([a-z0-9]{12})-(?:(\d{1,9})-)?port$/;

/** The customer's portfolio id as reports carry it, from its twelve characters. */
export function versionedPortfolioId(base: string): string {
  return `${base}-${PORTFOLIO_VERSION}-port`;
}

/** The stored id a portfolio id asks for (400, 16700, when it is not one); an unversioned id asks for the latest version. */
export function storedPortfolioId(portfolioId: string): string {
  const match = PORTFOLIO_ID.exec(portfolioId);
  if (!match)
    throw new ServiceError(
      'PortfolioIdInvalid',
      `Invalid portfolio id "${portfolioId.slice(0, 40)}": it is 12 lower-case letters and digits, a version and "-port" (dyr6qvqd2yhb-1-port), or without the version (dyr6qvqd2yhb-port).`,
    );
  return match[2] === undefined ? versionedPortfolioId(match[1]!) : `${match[1]}-${Number(match[2])}-port`;
}

function notFound(portfolioId: string): ServiceError {
  return new ServiceError('PortfolioNotFound', `No report found for portfolioId ${portfolioId}.`);
}

/** The latest report of each type (rows newest first), as the portfolio lists them. */
function latestOfEachType(rows: readonly ReportListRow[]): PortfolioSummaryRecord['reports'] {
  const seen = new Set<string>();
  const reports: PortfolioSummaryRecord['reports'] = [];
  for (const row of rows) {
    if (seen.has(row.type)) continue;
    seen.add(row.type);
    reports.push({ id: row.id, portfolioId: row.portfolio_id, type: row.type, status: row.status, createdDate: Number(row.created_at) });
  }
  return reports;
}

/** The portfolio's reports of the partner that `keep` accepts; 404 (16701) when there is none. */
async function portfolioRows(deps: Deps, partnerId: string, portfolioId: string, keep: (row: ReportListRow) => boolean) {
  const stored = storedPortfolioId(portfolioId);
  const rows = (await repo.selectPortfolioReports(deps.database.kysely, partnerId, stored)).filter(keep);
  if (rows.length === 0) throw notFound(portfolioId);
  return { stored, rows };
}

/** Get Portfolio by Customer: the portfolio must be the customer's (404 otherwise, as an unknown one). */
export async function getCustomerPortfolio(deps: Deps, partnerId: string, customerId: string, portfolioId: string): Promise<PortfolioSummaryRecord> {
  const customer = await getCustomerForPartner(deps.database.kysely, partnerId, customerId);
  const { stored, rows } = await portfolioRows(deps, partnerId, portfolioId, (row) => Number(row.customer_id) === customer.id);
  return { portfolioId: stored, reports: latestOfEachType(rows) };
}

/** Get Portfolio by Consumer: the portfolio must be the consumer's; with the consumer as the portfolio shows it. */
export async function getConsumerPortfolio(deps: Deps, partnerId: string, consumerId: string, portfolioId: string): Promise<PortfolioWithConsumerRecord> {
  const consumer = await getConsumer(deps, partnerId, consumerId);
  const { stored, rows } = await portfolioRows(deps, partnerId, portfolioId, (row) => row.consumer_id === consumer.id);
  return {
    portfolioId: stored,
    consumer: {
      id: consumer.id,
      firstName: consumer.firstName,
      lastName: consumer.lastName,
      customerId: consumer.customerId,
      ssn: consumer.ssn,
      birthday: consumer.birthday,
      ...(consumer.suffix ? { suffix: consumer.suffix } : {}),
    },
    reports: latestOfEachType(rows),
  };
}

/** Get Portfolio by Portfolio ID: one of the partner's portfolios, with its consumer as Get Consumer answers it. */
export async function getPortfolio(deps: Deps, partnerId: string, portfolioId: string): Promise<PortfolioWithFullConsumerRecord> {
  const { stored, rows } = await portfolioRows(deps, partnerId, portfolioId, () => true);
  // One customer, and so one consumer, per portfolio: the latest report names it.
  const consumer = await getConsumer(deps, partnerId, rows[0]!.consumer_id);
  return { portfolioId: stored, consumer, reports: latestOfEachType(rows) };
}
