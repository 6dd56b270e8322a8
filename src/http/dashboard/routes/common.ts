import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { startSession } from '../../../modules/dashboard/sessions.service.js';
import { toDashboardPartnerRecord } from '../../../modules/partners/records.js';
import { getPartnerRecord, type Caller } from '../../../modules/partners/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import { setSessionCookie } from '../../plugins/dashboard.js';
import { errorResponses, NoContent } from '../../../contract/schemas/common.js';

/**
 * Responses of a dashboard call: its answer (200, a schema of src/contract/schemas/dashboard.ts, which the browser's types are
 * generated from) and the errors every call can give.
 */
export const dashboardResponses = <T extends Type.TSchema>(ok: T, ...more: number[]) => ({ 200: ok, ...errorResponses(400, 401, 403, 404, ...more) });
/** Responses of a dashboard call that answers nothing (204), with the errors every call can give. */
export const dashboardNoContent = (...more: number[]) => ({ 204: NoContent, ...errorResponses(400, 401, 403, 404, ...more) });

/** The path of a call on one of the partner's customers. */
export const CustomerParams = Type.Object({ customerId: Type.String({ maxLength: 64 }) });
/** The path of a call on one of a customer's institution logins. */
export const LoginParams = Type.Object({ customerId: Type.String({ maxLength: 64 }), institutionLoginId: Type.String({ maxLength: 64 }) });

/** The signed-in partner as the API's services see a caller (the plan decides what sandbox controls and TxPUSH allow). */
export async function callerOf(runtime: Runtime, partnerId: string): Promise<Caller> {
  const partner = await getPartnerRecord(runtime, partnerId);
  return { partnerId: partner.id, plan: partner.plan };
}

/** What the dashboard shows of the signed-in partner, with the session's CSRF token. */
export async function sessionView(runtime: Runtime, session: { partnerId: string; expiresAt: number; csrfToken: string }) {
  const partner = await getPartnerRecord(runtime, session.partnerId);
  return { partner: toDashboardPartnerRecord(partner), expiresAt: session.expiresAt, csrfToken: session.csrfToken };
}

/** Starts a session for a partner who just signed in or up, sets its cookie and answers what the dashboard shows. */
export async function signedIn(runtime: Runtime, request: FastifyRequest, reply: FastifyReply, partnerId: string) {
  const { sessionId, session } = await startSession(runtime, partnerId);
  setSessionCookie(request, reply, sessionId, runtime.config.dashboardSessionTtlSeconds);
  return sessionView(runtime, session);
}
