/**
 * The listener verification handshake: before a subscription is accepted, the service sends
 * `GET callbackUrl?txpush_verification_code=CODE` and requires 200, `Content-Type: text/plain` and a body of
 * exactly CODE. Each way of failing has its own error code, and the message says what came back.
 */
import { ServiceError } from '../../contract/errors/service-error.js';
import { excerpt } from '../../outbox/transports/transport.js';
import { requestWithPolicy } from '../../outbox/transports/http.js';
import type { PolicyMode } from '../../outbox/policy.js';
import { OutboundHttpError } from '../../platform/net/http-client.js';
import { randomString } from '../../platform/secrets.js';

export const VERIFICATION_PARAMETER = 'txpush_verification_code';

export interface VerificationOptions {
  mode: PolicyMode;
  timeoutMs: number;
  /** Defaults to 32 random letters and digits. */
  code?: string;
}

/** The URL the verification request goes to: the callback URL with the code added to its query. */
export function verificationUrl(callbackUrl: string, code: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set(VERIFICATION_PARAMETER, code);
  return url.toString();
}

function mediaType(value: string | string[] | undefined): string {
  const v = Array.isArray(value) ? value[0] : value;
  return (v ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Runs the handshake against a listener; resolves when it answered correctly, otherwise throws the precise 4xx. */
export async function verifyListener(callbackUrl: string, options: VerificationOptions): Promise<void> {
  const code = options.code ?? randomString(32);
  const where = `the listener at ${callbackUrl}`;
  let res: Awaited<ReturnType<typeof requestWithPolicy>>;
  try {
    res = await requestWithPolicy({
      url: verificationUrl(callbackUrl, code),
      method: 'GET',
      headers: { accept: 'text/plain' },
      timeoutMs: options.timeoutMs,
      mode: options.mode,
      maxResponseBytes: 4096,
    });
  } catch (e) {
    const message = (e as Error).message;
    if (e instanceof OutboundHttpError && e.reason === 'refused')
      throw new ServiceError('ListenerAddressRefused', `Verification of ${where} was not attempted: ${message}.`);
    throw new ServiceError('ListenerUnreachable', `Verification of ${where} failed: it could not be reached (${message}).`);
  }
  if (res.status !== 200) {
    const redirect =
      res.status >= 300 && res.status < 400
        ? ` (a redirect${res.headers.location ? ` to ${excerpt(String(res.headers.location), 300)}` : ''}; redirects are not followed)`
        : '';
    throw new ServiceError(
      'ListenerVerificationStatus',
      `Verification of ${where} failed: it answered HTTP ${res.status}${redirect}; it must answer 200 with Content-Type text/plain and the value of ${VERIFICATION_PARAMETER} as the body.`,
    );
  }
  const type = mediaType(res.headers['content-type']);
  if (type !== 'text/plain') {
    throw new ServiceError(
      'ListenerVerificationContentType',
      `Verification of ${where} failed: it answered with Content-Type ${type ? `"${excerpt(type, 100)}"` : 'absent'}; it must be text/plain.`,
    );
  }
  if (res.body !== code) {
    const got = res.body === '' ? 'an empty body' : `"${excerpt(res.body, 100)}" (${Buffer.byteLength(res.body)} bytes)`;
    throw new ServiceError(
      'ListenerVerificationBody',
      `Verification of ${where} failed: its body was ${got}, not exactly the ${code.length}-character value of ${VERIFICATION_PARAMETER} sent (no extra white space or line breaks).`,
    );
  }
}
