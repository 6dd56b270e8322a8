/**
 * Portfolios (docs/reports.md, "Portfolios"): the reports of one customer, and so of its consumer, under one portfolio
 * id; a portfolio answers the latest report of each type.
 */
import Type from 'typebox';
import { Birthday, Consumer } from './consumers.js';

const PortfolioId = Type.String({
  description: 'A portfolio id: the same for every report of a customer; with its version (`-1-port`) or without (`-port`, the latest)',
  examples: ['dyr6qvqd2yhb-1-port'],
});

export const PortfolioReport = Type.Object(
  {
    id: Type.String({ description: 'The report id', examples: ['u4hstnnak45g-voa'] }),
    portfolioId: PortfolioId,
    type: Type.String({ description: 'The report type', examples: ['voa'] }),
    status: Type.String({ description: 'inProgress, success or failure', examples: ['success'] }),
    createdDate: Type.Integer({ description: 'When the report was asked for (epoch seconds)', examples: [1607450357] }),
  },
  { description: 'A report of the portfolio' },
);

const reports = Type.Array(PortfolioReport, { description: 'The latest report of each type, newest first' });

export const PortfolioSummary = Type.Object({ portfolioId: PortfolioId, reports }, { xml: { name: 'portfolio' }, description: 'A portfolio' });

export const PortfolioConsumer = Type.Object(
  {
    id: Consumer.properties.id,
    firstName: Consumer.properties.firstName,
    lastName: Consumer.properties.lastName,
    customerId: Consumer.properties.customerId,
    ssn: Consumer.properties.ssn,
    birthday: Type.Object(Birthday.properties, { description: 'The birth date; an empty object when not given' }),
    suffix: Type.Optional(Type.String({ examples: ['PhD'] })),
  },
  { description: 'The consumer of the portfolio' },
);

export const PortfolioWithConsumer = Type.Object(
  { portfolioId: PortfolioId, consumer: PortfolioConsumer, reports },
  { xml: { name: 'portfolio' }, description: 'A portfolio and its consumer' },
);

export const PortfolioWithFullConsumer = Type.Object(
  { portfolioId: PortfolioId, consumer: Type.Object(Consumer.properties, { description: 'The consumer of the portfolio' }), reports },
  { xml: { name: 'portfolio' }, description: 'A portfolio, its consumer and its reports' },
);

export const PortfolioIdParam = {
  portfolioId: Type.String({
    maxLength: 100,
    description: 'A portfolio id, with its version (`-1-port`) or without (`-port`: the latest)',
    examples: ['dyr6qvqd2yhb-1-port'],
  }),
};
export const CustomerPortfolioParams = Type.Object({ customerId: Type.String({ examples: ['1005061234'] }), ...PortfolioIdParam });
export const ConsumerPortfolioParams = Type.Object({
  consumerId: Type.String({ examples: ['0bf46322c167b562e6cbed9d40e19a4c'] }),
  ...PortfolioIdParam,
});
export const PortfolioParams = Type.Object(PortfolioIdParam);
