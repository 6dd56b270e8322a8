/** An institution login's refresh in sight (Ledgerlink extension): its last attempt and success, its schedule, its source. */
import Type from 'typebox';

/** Where a login's data comes from: the connector source that serves its institution, or uploaded statement files. */
export const LOGIN_SOURCES = ['testbank', 'simplefin', 'ofx', 'enablebanking', 'statementFile', 'none'] as const;
export type LoginSourceName = (typeof LOGIN_SOURCES)[number];

/** Why a login is or is not refreshed without anyone asking. */
export const REFRESH_SCHEDULES = ['scheduled', 'retrying', 'waitingForUser', 'manual', 'off'] as const;
export type RefreshScheduleName = (typeof REFRESH_SCHEDULES)[number];

const Epoch = (description: string) => Type.Integer({ description });

export const institutionLoginStatusFields = {
  institutionLoginId: Type.Integer({ examples: [6000000000] }),
  customerId: Type.String({ examples: ['1005061234'] }),
  institutionId: Type.String({ examples: ['102105'] }),
  source: Type.Unsafe<LoginSourceName>(
    Type.Union(
      LOGIN_SOURCES.map((s) => Type.Literal(s)),
      {
        description:
          'Where the data comes from: testbank (the sandbox test bank), simplefin (a SimpleFIN bridge), ofx (OFX Direct Connect), enablebanking (a European bank through Enable Banking), statementFile (uploaded statement files: nothing to refresh), none (no source serves the institution any more)',
        examples: ['ofx'],
      },
    ),
  ),
  aggregationStatusCode: Type.Integer({
    description: '0 after a successful sign-in or refresh, otherwise the aggregation status code of the last failure (docs/aggregation.md)',
  }),
  aggregationStatusMessage: Type.Optional(
    Type.String({ description: "The institution's or the connector's words for the last failure; absent while the status is 0" }),
  ),
  aggregationAttemptDate: Type.Optional(Epoch('The last refresh attempt, successful or not (customer clock); absent before the first')),
  aggregationSuccessDate: Type.Optional(Epoch('The last successful refresh (customer clock); absent before the first')),
  nextRefreshDate: Type.Optional(Epoch('When the scheduled refresh runs next (customer clock); absent when none is planned (refreshSchedule says why)')),
  refreshSchedule: Type.Unsafe<RefreshScheduleName>(
    Type.Union(
      REFRESH_SCHEDULES.map((s) => Type.Literal(s)),
      {
        description:
          'scheduled: refreshed every interval; retrying: after temporary failures, retried sooner and backing off; waitingForUser: the last failure is one only the user can fix (Connect Fix), nothing is retried; manual: refreshed only when asked (test bank and statement-file logins, or no source any more); off: scheduled refresh is turned off on this service',
        examples: ['scheduled'],
      },
    ),
  ),
  consecutiveFailures: Type.Integer({
    minimum: 0,
    description:
      'Failed refreshes in a row since the last success, as the schedule counts them for its backoff (temporary failures); at least 1 while the last attempt failed',
  }),
  refreshInProgress: Type.Boolean({ description: 'Whether a refresh (or a statement upload) of this login runs now' }),
};

/** GET /aggregation/v1/customers/{customerId}/institutionLogins/{institutionLoginId}/status. */
export const InstitutionLoginStatus = Type.Object(institutionLoginStatusFields, {
  xml: { name: 'institutionLoginStatus' },
  description: "An institution login's refresh status (Ledgerlink extension)",
});

/** A login's status with its institution's name, as the CLI (`ledgerlink logins list`) and the dashboard list them. */
export const NamedInstitutionLoginStatus = Type.Object(
  { ...institutionLoginStatusFields, institutionName: Type.String({ examples: ['FinBank Profiles - A'] }) },
  { xml: { name: 'institutionLoginStatus' } },
);

/** GET /cli/v1/customers/{customerId}/institutionLogins: every login of the customer, oldest first. */
export const InstitutionLoginStatusList = Type.Object(
  { customerId: Type.String(), institutionLogins: Type.Array(NamedInstitutionLoginStatus) },
  { xml: { name: 'institutionLogins' } },
);
