/**
 * The legacy MFA exchange of addall and of historic loads: a step on which the institution asks questions answers
 * 203 with them and an MFA-Session header, and the client answers in a body naming each question by id or text.
 */
import type { FastifyReply } from 'fastify';
import type { Static } from 'typebox';
import type { MfaAnswer } from '../../connectors/connector.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { AccountList, MfaAnswersBody, MfaChallenges, MfaQuestion } from '../../contract/schemas/accounts.js';
import type { MfaChallenge } from '../../contract/schemas/connect-app.js';
import type { Engine } from '../../modules/aggregation/engine.js';
import { aggregationError } from '../../modules/aggregation/failures.js';
import { finishLink, type LinkStep } from '../../modules/aggregation/linking.service.js';
import type { HistoricOutcome } from '../../modules/aggregation/refresh.service.js';

const MFA_SESSION_HEADER = 'MFA-Session';

/** An institution's MFA challenge as a legacy question. */
function mfaQuestion(c: Static<typeof MfaChallenge>): Static<typeof MfaQuestion> {
  const options = c.options;
  return {
    id: c.id,
    text: c.prompt,
    ...(c.kind === 'image' ? { image: c.image } : {}),
    ...(options ? { choices: options.map((o) => ({ value: o.value, choice: o.label })) } : {}),
  };
}

/** Sets 203 and the MFA-Session header of an MFA step, and answers its questions. */
function askMfa(reply: FastifyReply, mfa: Extract<LinkStep, { step: 'mfa' }>): Static<typeof MfaChallenges> {
  void reply.code(203).header(MFA_SESSION_HEADER, mfa.sessionId);
  return { questions: mfa.challenges.map(mfaQuestion) };
}

/**
 * What addall (and its MFA call) answers for a sign-in step: 200 with the linked accounts, 203 with the MFA
 * questions and the MFA-Session header, or the aggregation failure as an error whose code is the status code.
 */
export async function addAllResponse(
  engine: Engine,
  partnerId: string,
  step: LinkStep,
  reply: FastifyReply,
): Promise<Static<typeof AccountList> | Static<typeof MfaChallenges>> {
  switch (step.step) {
    case 'accounts':
      if (step.accounts.length === 0) return { accounts: [] };
      return { accounts: (await finishLink(engine, { partnerId, sessionId: step.sessionId })).accounts };
    case 'mfa':
      return askMfa(reply, step);
    case 'failed':
      throw aggregationError(step.code, step.message);
    default:
      throw new ServiceError('OAuthRequiresConnect');
  }
}

/** What a historic load (and its MFA call) answers: 204 when the history is loaded, 203 with the MFA questions otherwise. */
export function historicResponse(outcome: HistoricOutcome, reply: FastifyReply) {
  if (outcome.done) return reply.code(204).send(null);
  return reply.send(askMfa(reply, outcome.mfa));
}

/** The answers of a legacy MFA body (mfaChallenges.questions or questions), each naming its question by id or text. */
export function mfaAnswersOf(body: Static<typeof MfaAnswersBody>): MfaAnswer[] {
  const questions = body.mfaChallenges?.questions ?? body.questions ?? [];
  const answers = questions.map((q) => ({ id: q.id ?? q.text ?? '', value: q.answer }));
  if (answers.length === 0) throw new ServiceError('MissingParameter', 'Missing parameter (mfaChallenges.questions)');
  return answers;
}
