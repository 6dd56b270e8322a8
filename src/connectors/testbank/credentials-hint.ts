/**
 * The test credentials Connect shows under a test institution's sign-in form in sandbox mode (docs/test-profiles.md):
 * a few profiles, each with its password, and what this institution does with them.
 */
import { testInstitution } from './institutions.js';
import { ALWAYS_MFA_ROUND, findProfile } from './profiles.js';

export interface TestCredentialsHint {
  note: string;
  users: Array<{ username: string; password: string; description: string }>;
}

/** One profile of each kind: accounts, an MFA question, a sign-in error. */
const SHOWN = ['profile_01', 'mfa_text', 'error_108'] as const;

/** The hint for a test institution with a sign-in form; undefined for any other institution. */
export function testCredentialsHint(institutionId: number): TestCredentialsHint | undefined {
  const institution = testInstitution(institutionId);
  if (!institution || institution.behaviour === 'oauth') return undefined;
  const passcode = ALWAYS_MFA_ROUND[0]?.answer;
  const note =
    institution.behaviour === 'down'
      ? 'Sandbox test institution: every sign-in here ends in error 102 (institution unavailable).'
      : institution.behaviour === 'always-mfa'
        ? `Sandbox test institution: sign in with a test profile; the password is the user ID. Every profile is then asked for a passcode: ${passcode}.`
        : 'Sandbox test institution: sign in with a test profile; the password is the user ID.';
  const users = SHOWN.flatMap((id) => {
    const profile = findProfile(id);
    if (!profile) return [];
    const answer = profile.mfa?.[0]?.length === 1 ? profile.mfa[0][0]?.answer : undefined;
    const description =
      profile.signInFailure !== undefined
        ? `Sign-in ends in error ${profile.signInFailure.code}.`
        : profile.mfa
          ? `Asks a security question${answer ? ` (answer: ${answer})` : ''}.`
          : profile.summary;
    return [{ username: profile.id, password: profile.password ?? profile.id, description }];
  });
  return { note, users };
}
