import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALWAYS_MFA_ROUND, TEST_PROFILES } from '../../src/connectors/testbank/profiles.js';
import { loanPaymentOf, ownershipOf } from '../../src/connectors/testbank/identity.js';
import { TEST_INSTITUTIONS, testRoutingNumber } from '../../src/connectors/testbank/institutions.js';

const doc = readFileSync(new URL('../../docs/test-profiles.md', import.meta.url), 'utf8');

/** The text of the `### ...` section whose heading names the profile. */
function section(profile: string): string {
  const parts = doc.split(/^### /m).filter((s) => s.split('\n')[0]!.includes(`\`${profile}\``));
  return parts.join('\n');
}

describe('docs/test-profiles.md', () => {
  it('lists every test institution', () => {
    for (const t of TEST_INSTITUTIONS) expect(doc).toContain(`| \`${t.id}\` | ${t.name} |`);
  });

  it('describes every profile in the overview and every account of it in its own section', () => {
    for (const p of TEST_PROFILES) {
      expect(doc, p.id).toContain(`| \`${p.id}\` |`);
      if (p.accounts.length === 0 && !p.signInFailure) expect(section(p.id), p.id).not.toBe('');
      for (const a of p.accounts) expect(section(p.id), `${p.id}: ${a.name}`).toContain(`| ${a.name} | ${a.type} |`);
    }
  });

  it('gives every MFA question and answer', () => {
    for (const p of TEST_PROFILES) {
      for (const [round, questions] of (p.mfa ?? []).entries()) {
        for (const q of questions) expect(doc, `${p.id} ${q.id}`).toContain(`| \`${p.id}\` | ${round + 1} | \`${q.id}\` | ${q.kind} | ${q.prompt}`);
        for (const q of questions) expect(doc).toContain(`| \`${q.answer}\` |`);
      }
    }
    for (const q of ALWAYS_MFA_ROUND) expect(doc).toContain(`| \`${q.id}\` | ${q.kind} | ${q.prompt} | \`${q.answer}\` |`);
  });

  it("gives every institution's routing number, every profile's owners and every lender's payment address", () => {
    for (const t of TEST_INSTITUTIONS) expect(doc).toContain(`| \`${t.id}\` | \`${testRoutingNumber(t.id)}\` |`);
    for (const p of TEST_PROFILES) {
      if (p.signInFailure) continue;
      const ownership = ownershipOf(p.owner);
      for (const [i, h] of ownership.holders.entries()) {
        const a = h.addresses[0]!;
        const address = [a.line1, a.line2, a.city, a.state, a.postalCode].filter(Boolean).join(' ');
        const phones = h.phones.map((ph) => `${ph.number} (${ph.type})`).join(', ');
        const first = i === 0 ? `| \`${p.id}\` | ${ownership.name} |` : '|  |  |';
        expect(doc, `${p.id}: ${h.name}`).toContain(`${first} ${h.name} | ${h.relationship} | ${address} | ${h.emails[0]!.address} | ${phones} |`);
      }
      for (const a of p.accounts) {
        if (a.type === 'loan' || a.type === 'mortgage') expect(doc, a.lender).toContain(`| ${a.lender} | ${loanPaymentOf(a, '0', () => '0').paymentAddress} |`);
      }
    }
  });

  it('names the status code of every error and refresh-failure profile', () => {
    for (const p of TEST_PROFILES) {
      const code = p.signInFailure?.code ?? p.refreshFailure?.code;
      if (code !== undefined)
        expect(
          doc.split('\n').some((line) => line.startsWith(`| \`${code}\``) && line.includes(`\`${p.id}\``)),
          p.id,
        ).toBe(true);
    }
  });
});
