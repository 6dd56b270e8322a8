/**
 * OFX Direct Connect as a connector source: every institution the catalogue stores an OFX server for (the shipped
 * directory's and operators' own, kept by the institutions module), which its connector signs on to with the user's
 * id and password.
 */
import type { ConnectorSource } from '../source.js';
import { OfxConnector, type OfxInstitutionConfig } from './connector.js';
import { createHttpTransport } from './transport.js';

export const ofx: ConnectorSource = {
  name: 'ofx',
  settings: [],
  // The directory's institutions join catalogue ones of the same name, and operators add theirs while the service
  // runs: the institutions module keeps them with their servers (ofx-directory.service.ts).
  institutions: [],
  // Bank statements state the routing number (BANKID) and full account number (ACCTID), and servers keep history.
  products: ['ach', 'aha', 'availBalance'],
  open(deps) {
    // Servers come from the directory or an operator: reached through the connectors' HTTP transport, under the
    // outbound target policy of the service mode.
    const transport = createHttpTransport({ mode: deps.mode, timeoutMs: 60_000, maxBytes: 16 * 1024 * 1024 });
    // Keeps each login's CLIENTUID the same across sign-ins, in every process.
    const clientUidKey = deps.deriveKey('ofx-clientuid');
    return {
      async connectorFor(institutionId) {
        const institution = (await deps.catalogue.connection(institutionId, 'ofx')) as OfxInstitutionConfig | undefined;
        return institution ? new OfxConnector({ institution, transport, clientUidKey }) : undefined;
      },
    };
  },
};
