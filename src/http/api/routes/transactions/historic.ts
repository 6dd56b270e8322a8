import type { FastifyReply } from 'fastify';
import type { HistoricOutcome } from '../../../../modules/aggregation/refresh.service.js';
import { MFA_SESSION_HEADER, mfaQuestion } from '../accounts/addall.js';

/** 204 when the history is loaded; 203 with the MFA questions and the MFA-Session header otherwise. */
export function historicResponse(outcome: HistoricOutcome, reply: FastifyReply) {
  if (outcome.done) return reply.code(204).send(null);
  return reply
    .code(203)
    .header(MFA_SESSION_HEADER, outcome.mfa.sessionId)
    .send({ questions: outcome.mfa.challenges.map(mfaQuestion) });
}
