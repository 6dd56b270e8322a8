import { errorResponses } from '../../../../contract/schemas/common.js';
import { PortfolioParams, PortfolioWithFullConsumer } from '../../../../contract/schemas/portfolios.js';
import { getPortfolio } from '../../../../modules/reports/portfolios.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { PORTFOLIO_TEXT } from './text.js';

/** GET /decisioning/v1/portfolios/{portfolioId} */
export default function getPortfolioById(app: App, runtime: Runtime): void {
  app.get('/decisioning/v1/portfolios/:portfolioId', {
    schema: {
      operationId: 'GetPortfolioByPathParamPortFolioID',
      tags: ['Portfolios'],
      summary: 'Get Portfolio by Portfolio ID',
      description: `One of the partner's portfolios, with its consumer as Get Consumer answers it. ${PORTFOLIO_TEXT} Another partner's portfolio answers 404 (16701), as an unknown one.`,
      params: PortfolioParams,
      response: { 200: PortfolioWithFullConsumer, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => getPortfolio(runtime, request.caller.partnerId, request.params.portfolioId),
  });
}
