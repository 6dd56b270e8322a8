import { describe, expect, it } from 'vitest';
import { TestBankConnector } from '../../src/connectors/testbank/connector.js';
import { TEST_INSTITUTIONS } from '../../src/connectors/testbank/institutions.js';
import { registry, testBankRegistry } from '../helpers/testbank.js';

describe('connector registry', () => {
  it("serves every test institution with the test bank connector and that institution's behaviour", async () => {
    for (const institution of TEST_INSTITUTIONS) {
      const lookup = await registry.resolve(institution.id);
      if (!lookup.available) throw new Error(lookup.reason);
      expect(lookup.connector).toBeInstanceOf(TestBankConnector);
      expect((lookup.connector as TestBankConnector).institution).toBe(institution);
      expect(lookup.connector.capabilities.authMode).toBe(institution.behaviour === 'oauth' ? 'oauth' : 'credentials');
    }
  });

  it('says plainly that other institutions have no connector', async () => {
    expect(await registry.resolve(4223)).toEqual({ available: false, reason: 'No connector is available for institution 4223 yet.' });
  });

  it('needs a signing key of at least 32 bytes', () => {
    expect(() => testBankRegistry(Buffer.alloc(16))).toThrow(/32 bytes/);
  });

  it('makes sessions of one key worthless under another', async () => {
    const other = await testBankRegistry(Buffer.alloc(32, 9)).resolve(101732);
    const mine = await registry.resolve(101732);
    if (!other.available || !mine.available) throw new Error('no connector');
    const signedIn = await mine.connector.authenticate({ institutionId: 101732, now: 1_768_000_000 }, [
      { id: '101732001', value: 'profile_01' },
      { id: '101732002', value: 'profile_01' },
    ]);
    if (!signedIn.ok || signedIn.kind !== 'authenticated') throw new Error('no session');
    expect(await other.connector.listAccounts({ institutionId: 101732, now: 1_768_000_000 }, signedIn.session)).toMatchObject({ ok: false, code: 103 });
  });
});
