/**
 * The HTTP exchange with an OFX server: one POST per request, answered by one OFX document. The connector is
 * written against OfxTransport, so the wiring decides how institutions are reached; createHttpTransport is the
 * ready-made one over the connectors' HTTP transport (../http-transport.ts: the outbound target policy checked when
 * connecting, a time limit for the whole exchange, a size limit on the answer, no redirects), decoding answers by
 * the character set OFX headers declare.
 */
import {
  ConnectorHttpError,
  type ConnectorHttpFailure,
  type ConnectorHttpOptions,
  type ConnectorTextResponse,
  createConnectorHttp,
} from '../http-transport.js';
import { decodeOfxBytes } from './markup.js';

export interface OfxTransportRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export type OfxTransportResponse = ConnectorTextResponse;

export type OfxTransport = (request: OfxTransportRequest) => Promise<OfxTransportResponse>;

/** Why a transport gave no answer; the connector turns every cause into aggregation status 102. */
export class OfxTransportError extends Error {
  override readonly name = 'OfxTransportError';
  constructor(
    readonly reason: 'network' | 'timeout' | 'too-large' | 'refused-url',
    message: string,
  ) {
    super(message);
  }
}

/** The service mode, the time limit of an exchange and the size limit of an answer (see ConnectorHttpOptions). */
export type HttpTransportOptions = ConnectorHttpOptions;

const REASONS: Record<ConnectorHttpFailure, OfxTransportError['reason']> = {
  refused: 'refused-url',
  timeout: 'timeout',
  'too-large': 'too-large',
  network: 'network',
};

/** A transport over HTTP(S). Bodies are sent as UTF-8 and answers decoded by the character set they declare. */
export function createHttpTransport(options: HttpTransportOptions): OfxTransport {
  const send = createConnectorHttp(options);
  return async ({ url, body, headers }) => {
    try {
      const answer = await send({ method: 'POST', url, headers, body });
      return { status: answer.status, body: decodeOfxBytes(answer.body) };
    } catch (error) {
      if (error instanceof ConnectorHttpError) throw new OfxTransportError(REASONS[error.reason], error.message);
      throw new OfxTransportError('network', 'The connection failed');
    }
  };
}
