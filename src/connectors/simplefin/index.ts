/**
 * SimpleFIN as a connector source: one catalogue institution, SimpleFIN Bridge, through which a user reaches the
 * accounts they linked at their bridge (each account names its own bank). It signs in with a setup token.
 */
import type { ConnectorSource } from '../source.js';
import { createHttpTransport } from './client.js';
import { SimplefinConnector } from './connector.js';
import { simplefinUrlPolicy } from './token.js';

/** SimpleFIN Bridge's id in the catalogue. */
export const SIMPLEFIN_INSTITUTION_ID = 590_000;

export const simplefin: ConnectorSource = {
  name: 'simplefin',
  settings: [],
  institutions: [
    {
      id: SIMPLEFIN_INSTITUTION_ID,
      name: 'SimpleFIN Bridge',
      homeUrl: 'https://beta-bridge.simplefin.org/',
      signInHelp:
        'Make a setup token at your SimpleFIN Bridge (Connections, then New app connection) and paste it here. It can be used once; Ledgerlink keeps only the access it grants.',
      searchRank: 1,
    },
  ],
  // Balances only: bridges give no account numbers and no owners, and keep 90 days of transactions.
  products: ['availBalance'],
  open(deps) {
    // Claim and access URLs come from the user's token and the bridge: both go through the connectors' HTTP
    // transport, under the outbound target policy of the service mode.
    const connector = new SimplefinConnector({
      transport: createHttpTransport({ mode: deps.mode, timeoutMs: 60_000 }),
      allowUrl: simplefinUrlPolicy(deps.mode),
    });
    return { connectorFor: (institutionId) => (institutionId === SIMPLEFIN_INSTITUTION_ID ? connector : undefined) };
  },
};
