import { errorResponses } from '../../../../contract/schemas/common.js';
import { CustomerPortfolioParams, PortfolioSummary } from '../../../../contract/schemas/portfolios.js';
import { getCustomerPortfolio } from '../../../../modules/reports/portfolios.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { PORTFOLIO_TEXT } from './text.js';

/** GET /decisioning/v1/customers/{customerId}/portfolios/{portfolioId} */
export default function getPortfolioByCustomer(app: App, runtime: Runtime): void {
  app.get('/decisioning/v1/customers/:customerId/portfolios/:portfolioId', {
    schema: {
      operationId: 'GetPortfolioByCustomer',
      tags: ['Portfolios'],
      summary: 'Get Portfolio by Customer and Portfolio',
      description: `The portfolio of one of the partner's customers. ${PORTFOLIO_TEXT} Another customer's portfolio answers 404 (16701), another partner's customer 404 (14001).`,
      params: CustomerPortfolioParams,
      response: { 200: PortfolioSummary, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => getCustomerPortfolio(runtime, request.caller.partnerId, request.params.customerId, request.params.portfolioId),
  });
}
