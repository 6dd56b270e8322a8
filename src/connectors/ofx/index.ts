/**
 * OFX Direct Connect: the source (source.ts), the connector, the statement-file reader, and the protocol layers
 * under them (dates, markup, typed responses, requests, status codes, mapping to the connector contract).
 */
export {
  createHttpTransport,
  type HttpTransportOptions,
  MAX_OFX_ACCOUNTS,
  OfxConnector,
  type OfxConnectorOptions,
  type OfxInstitutionConfig,
  type OfxTransport,
  OfxTransportError,
} from './connector.js';
export { formatOfxDate, parseOfxDate } from './dates.js';
export {
  accountIdOfRef,
  accountNameOf,
  accountRecordOf,
  accountRefOf,
  accountTypeOf,
  bankTransactionsOf,
  investmentTransactionsOf,
  positionRefOf,
  transactionRefOf,
  transactionTypeOf,
} from './map.js';
export { childOf, childrenOf, decodeEntities, encodeEntities, MIN_OFX_CHARS_PER_ELEMENT, leafValue } from './markup.js';
export * from './parse.js';
export { ofx } from './source.js';
export {
  buildOfxRequest,
  isOfxVersion,
  isXmlVersion,
  OFX_VERSIONS,
  type OfxRequestItem,
  type OfxSignonRequest,
  type OfxVersion,
  versionHasClientUid,
} from './request.js';
export {
  OFX_STATUS_TABLE,
  OFX_TRANSPORT_TABLE,
  type OfxStatusRow,
  type OfxTransportRow,
  ofxStatusFailure,
  ofxStatusRow,
  ofxStatusTableMarkdown,
  ofxTransportFailure,
} from './status.js';
export type { OfxTransportRequest, OfxTransportResponse } from './transport.js';
