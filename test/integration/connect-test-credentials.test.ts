import { afterAll, describe, expect, it } from 'vitest';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { createTestContext, partnerWithToken, type TestContext } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { appOk, linkFor } from '../helpers/connect.js';

/** The test credentials Connect shows under a test institution's sign-in form (sandbox mode only). */
describe('Connect test credentials', () => {
  const contexts: TestContext[] = [];
  afterAll(async () => {
    for (const ctx of contexts) await ctx.close();
  });

  async function selected(env: Record<string, string>, institutionId: number | 'real') {
    const ctx = await createTestContext(env);
    contexts.push(ctx);
    await ensureInstitutionCatalog(ctx.runtime.database);
    const partner = await partnerWithToken(ctx, institutionId === 'real' ? 'production' : 'testdrive');
    const customerId = await addCustomer(ctx, partner, { type: institutionId === 'real' ? 'active' : 'testing' });
    const link = await linkFor(ctx, partner, 'full', { customerId });
    let id = institutionId;
    if (id === 'real') id = (await appOk(ctx, link, 'GET', '/institutions?search=chase&limit=1')).institutions[0].id as number;
    return appOk(ctx, link, 'POST', `/institutions/${id}`);
  }

  it('lists test users under a test institution in sandbox mode', async () => {
    const form = await selected({}, 101732);
    expect(form.testCredentials).toEqual({
      note: expect.stringMatching(/password is the user ID/),
      users: expect.arrayContaining([
        { username: 'profile_01', password: 'profile_01', description: expect.any(String) },
        { username: 'mfa_text', password: 'mfa_text', description: expect.stringMatching(/security question/) },
        { username: 'error_108', password: 'error_108', description: expect.stringMatching(/108/) },
      ]),
    });
    const mfa = await selected({}, 102175);
    expect(mfa.testCredentials.note).toMatch(/123456/);
  });

  it('shows nothing at an OAuth test institution, which has no form', async () => {
    expect((await selected({}, 102168)).testCredentials).toBeUndefined();
  });

  it('shows nothing at a real institution', async () => {
    const form = await selected({}, 'real');
    expect(form.institution.id).not.toBe(101732);
    expect(form).not.toHaveProperty('testCredentials');
  });

  it('shows nothing in production mode, even at a test institution', async () => {
    const form = await selected({ LEDGERLINK_MODE: 'production' }, 101732);
    expect(form.loginForm.length).toBe(2);
    expect(form).not.toHaveProperty('testCredentials');
  });
});
