/**
 * The faults the local fakes of outside services (test/helpers/simplefin-bridge.ts, enable-banking.ts) answer alike:
 * a slow answer, a dropped connection, an answer that is not JSON. Each fake adds its own (statuses, bodies).
 */
import type { IncomingMessage } from 'node:http';

export type CommonFault =
  /** The usual answer comes this much later. */
  | { delayMs: number }
  /** The connection is dropped without an answer. */
  | { drop: true }
  /** A 200 answer that is not JSON. */
  | { garbage: true };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function isCommonFault(fault: object): fault is CommonFault {
  return 'delayMs' in fault || 'drop' in fault || 'garbage' in fault;
}

/** Applies a common fault: true when the request got its answer (or lost its connection), false when it is still to come. */
export async function applyCommonFault(fault: CommonFault, req: IncomingMessage, send: (status: number, body: string, type: string) => void): Promise<boolean> {
  if ('delayMs' in fault) {
    await sleep(fault.delayMs);
    return false;
  }
  if ('drop' in fault) req.socket.destroy();
  else send(200, '<html>Service temporarily unavailable</html>', 'text/html');
  return true;
}
