import { XMLParser } from 'fast-xml-parser';
import { type Kysely, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMPLEFIN_INSTITUTION_ID } from '../../src/connectors/simplefin/index.js';
import { testRoutingNumber } from '../../src/connectors/testbank/institutions.js';
import { addOfxInstitution } from '../../src/modules/institutions/service.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { migrations } from '../../src/platform/db/migrations/index.js';
import { DAY, linkProfile, loginForm, nowOf, refresh, type AccountJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, renewToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { startOfxServer, type OfxServer, type OfxServerAccount } from '../helpers/ofx-server.js';
import { demoAccounts, type SimplefinBridge, startSimplefinBridge } from '../helpers/simplefin-bridge.js';
import { ofxStatementFile } from '../helpers/statement-files.js';
import { FINBANK, uploadStatementOk } from '../helpers/statement-uploads.js';

/** The numbers an OFX server and an uploaded OFX file give: real routing numbers (valid check digits) and full account numbers. */
const OFX_ROUTING = '121000358';
const OFX_CHECKING = '000123456789';
const FILE_ROUTING = '121000248';
const FILE_CHECKING = '9876543210123';

const xml = new XMLParser({
  parseTagValue: false,
  isArray: (name) => ['paymentInstruction', 'descriptors', 'holders', 'addresses', 'emails', 'phones', 'loanDetail'].includes(name),
});

const base = (customerId: string, accountId: string | number) => `/aggregation/v1/customers/${customerId}/accounts/${accountId}`;
const PATHS = {
  ach: (c: string, a: string | number) => `${base(c, a)}/details`,
  instructions: (c: string, a: string | number) => `/aggregation/v3/customers/${c}/accounts/${a}/details`,
  balance: (c: string, a: string | number) => `${base(c, a)}/availableBalance`,
  live: (c: string, a: string | number, query = '') => `${base(c, a)}/availableBalance/live${query}`,
  loan: (c: string, a: string | number) => `/aggregation/v2/customers/${c}/accounts/${a}/loanDetails`,
  owner: (c: string, a: string | number) => `${base(c, a)}/owner`,
  ownerDetails: (c: string, a: string | number) => `/aggregation/v3/customers/${c}/accounts/${a}/owner`,
  match: (c: string, a: string | number) => `/account-owner-verification-matchings/customers/${c}/accounts/${a}`,
};

interface AchJson {
  routingNumber: string;
  realAccountNumber: string;
}
interface BalanceJson {
  id: number;
  realAccountNumberLast4: string;
  availableBalance: number;
  availableBalanceDate: number;
  clearedBalance: number;
  clearedBalanceDate: number;
  aggregationStatusCode: number;
  currency: string;
}
type Scores = Record<string, number>;
interface HolderJson {
  ownerName: string;
  relationship?: string;
  firstName?: string;
  lastName?: string;
  nameClassification: string;
  nameScores?: Scores;
  addresses: { ownerAddress: string; line1: string; postalCode: string; addressScores?: Scores }[];
  emails: { email: string; isPrimary: boolean; emailScores?: Scores }[];
  phones: { phone: string; type: string; phoneScores?: Scores }[];
}

describe('payments and identity operations', () => {
  let ctx: TestContext;
  /** Links test bank profiles and uploads statement files (Test Drive). */
  let partner: TestPartner;
  /** Links at real institutions: an OFX server and a SimpleFIN bridge (production plan). */
  let production: TestPartner;
  let stranger: TestPartner;
  let ofx: OfxServer;
  let bridge: SimplefinBridge;
  let ofxInstitution: number;

  const ofxAccounts = (checking: number): OfxServerAccount[] => [
    { kind: 'bank', bankId: OFX_ROUTING, acctId: OFX_CHECKING, acctType: 'CHECKING', balance: checking, available: checking - 40, transactions: [] },
    { kind: 'creditCard', acctId: '4111111111111111', balance: -250.5, transactions: [] },
  ];

  beforeAll(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
    partner = await partnerWithToken(ctx);
    production = await partnerWithToken(ctx, 'production');
    stranger = await partnerWithToken(ctx);
    ofx = await startOfxServer({ format: 'sgml', users: [{ userId: 'alice', password: 'secret-1', accounts: ofxAccounts(1520.75) }] });
    ofxInstitution = await addOfxInstitution(
      ctx.runtime.database,
      'sandbox',
      { name: 'Payments Test Credit Union', url: ofx.url, fid: '4321', org: 'PTCU' },
      nowOf(ctx),
    );
    bridge = await startSimplefinBridge({ now: () => nowOf(ctx) });
  }, 120_000);
  afterAll(async () => {
    await ofx?.close();
    await bridge?.close();
    await ctx?.close();
  });

  const call = (who: TestPartner, url: string, options: { accept?: string; method?: 'GET' | 'POST'; payload?: object } = {}) =>
    ctx.app.inject({
      method: options.method ?? 'GET',
      url,
      headers: { ...who.headers, accept: options.accept ?? 'application/json' },
      ...(options.payload ? { payload: options.payload } : {}),
    });
  const ok = async <T>(who: TestPartner, url: string, options: Parameters<typeof call>[2] = {}): Promise<T> => {
    const res = await call(who, url, options);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json<T>();
  };
  const refused = async (who: TestPartner, url: string, status: number, code: string, options: Parameters<typeof call>[2] = {}) => {
    const res = await call(who, url, options);
    expect([res.statusCode, res.json<{ code: string }>().code], `${url}: ${res.body}`).toEqual([status, code]);
    return res.json<{ code: string; message: string }>();
  };
  const storedAccount = (id: string | number) =>
    ctx.runtime.database.kysely.selectFrom('accounts').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
  const ofType = (accounts: AccountJson[], type: string) => {
    const found = accounts.find((a) => a.type === type);
    if (!found) throw new Error(`no ${type} account`);
    return found;
  };

  describe('the test bank', () => {
    let customerId: string;
    let accounts: AccountJson[];
    beforeAll(async () => {
      customerId = await addCustomer(ctx, partner);
      await linkProfile(ctx, partner, customerId, 'profile_02');
      // The initial aggregation: its balances are the ones read from the institution, with their time.
      accounts = await refresh(ctx, partner, customerId);
    });

    it("answers a checking account's routing number and full account number, v1 and v3, in JSON and XML", async () => {
      const checking = ofType(accounts, 'checking');
      const full = (await storedAccount(checking.id)).number;
      expect(full).toMatch(/^\d{10}$/);
      expect(full.endsWith(String(checking.accountNumberDisplay))).toBe(true);
      expect(await ok<AchJson>(partner, PATHS.ach(customerId, checking.id))).toEqual({ routingNumber: testRoutingNumber(FINBANK), realAccountNumber: full });
      expect(testRoutingNumber(FINBANK)).toBe('124017322');
      expect(await ok(partner, PATHS.instructions(customerId, checking.id))).toEqual({
        paymentInstruction: [{ type: 'ach', accountNumber: full, tanEnabled: false, descriptors: [{ type: 'routingNumber', value: '124017322' }] }],
      });
      const v1 = await call(partner, PATHS.ach(customerId, checking.id), { accept: 'application/xml' });
      expect(v1.headers['content-type']).toMatch(/^application\/xml/);
      expect(xml.parse(v1.body)).toEqual({ '?xml': '', achDetails: { routingNumber: '124017322', realAccountNumber: full } });
      const v3 = xml.parse((await call(partner, PATHS.instructions(customerId, checking.id), { accept: 'application/xml' })).body);
      expect(v3.paymentInstructions.paymentInstruction).toEqual([
        { type: 'ach', accountNumber: full, tanEnabled: 'false', descriptors: [{ type: 'routingNumber', value: '124017322' }] },
      ]);
      // A savings account has numbers of its own at the same institution.
      const savings = ofType(accounts, 'savings');
      const saved = await ok<AchJson>(partner, PATHS.ach(customerId, savings.id));
      expect(saved).toEqual({ routingNumber: '124017322', realAccountNumber: (await storedAccount(savings.id)).number });
      expect(saved.realAccountNumber).not.toBe(full);
    });

    it('gives each test institution its own routing number', async () => {
      const other = await addCustomer(ctx, partner);
      const [checking] = (await linkProfile(ctx, partner, other, 'profile_01', 102105)).filter((a) => a.type === 'checking');
      expect((await ok<AchJson>(partner, PATHS.ach(other, checking!.id))).routingNumber).toBe('124021059');
    });

    it('answers 400 (14020) for ACH details and balances of cards, loans, lines of credit and investments', async () => {
      for (const type of ['creditCard', 'mortgage', 'loan', 'lineOfCredit', 'investment']) {
        const account = ofType(accounts, type);
        for (const path of [PATHS.ach, PATHS.instructions, PATHS.balance, PATHS.live]) {
          const error = await refused(partner, path(customerId, account.id), 400, '14020');
          expect(error.message).toBe('Bad request. (Account type not supported).');
        }
      }
      // XML errors too.
      const card = ofType(accounts, 'creditCard');
      const res = await call(partner, PATHS.ach(customerId, card.id), { accept: 'application/xml' });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('<code>14020</code>');
    });

    it('answers the stored available balance, and reads it again live once it is older than the cache interval', async () => {
      const checking = ofType(accounts, 'checking');
      const detail = checking.detail as { availableBalanceAmount: number };
      const stored = await ok<BalanceJson>(partner, PATHS.balance(customerId, checking.id));
      expect(stored).toEqual({
        id: Number(checking.id),
        realAccountNumberLast4: checking.accountNumberDisplay,
        availableBalance: detail.availableBalanceAmount,
        availableBalanceDate: checking.balanceDate,
        clearedBalance: checking.balance,
        clearedBalanceDate: checking.balanceDate,
        aggregationStatusCode: 0,
        currency: 'USD',
      });
      expect(xml.parse((await call(partner, PATHS.balance(customerId, checking.id), { accept: 'application/xml' })).body).availableBalance).toMatchObject({
        id: String(checking.id),
        availableBalance: String(detail.availableBalanceAmount),
      });

      // Within the interval (30 minutes unless given): the stored balance, without asking the institution.
      const readAt = (await storedAccount(checking.id)).aggregation_success_at;
      ctx.clock.advance(10 * 60_000);
      expect(await ok<BalanceJson>(partner, PATHS.live(customerId, checking.id))).toEqual(stored);
      expect((await storedAccount(checking.id)).aggregation_success_at).toBe(readAt);
      // Three days later on the customer's clock the test bank's books moved on: the live balance is read again, and stored.
      const moved = await call(partner, `/sandbox/v1/customers/${customerId}/clock`, { method: 'POST', payload: { days: 3 } });
      expect(moved.statusCode, moved.body).toBe(200);
      const live = await ok<BalanceJson>(partner, PATHS.live(customerId, checking.id));
      const after = await storedAccount(checking.id);
      expect(Number(after.aggregation_success_at)).toBe(nowOf(ctx) + 3 * DAY);
      expect(live.availableBalanceDate).toBe(nowOf(ctx) + 3 * DAY);
      expect(live.clearedBalance).toBe(Number(after.balance));
      expect(live.availableBalance).toBe((JSON.parse(after.detail!) as { availableBalanceAmount: number }).availableBalanceAmount);
      expect(live.clearedBalance).not.toBe(stored.clearedBalance);
      expect(await ok<BalanceJson>(partner, PATHS.balance(customerId, checking.id))).toEqual(live);
      // balance_cache_interval=0 always reads again; a long interval does not.
      ctx.clock.advance(60_000);
      const again = await ok<BalanceJson>(partner, PATHS.live(customerId, checking.id, '?balance_cache_interval=0'));
      expect(again.availableBalanceDate).toBe(live.availableBalanceDate + 60);
      ctx.clock.advance(60 * 60_000);
      expect(await ok<BalanceJson>(partner, PATHS.live(customerId, checking.id, '?balance_cache_interval=120'))).toEqual(again);
      await refused(partner, PATHS.live(customerId, checking.id, '?balance_cache_interval=1441'), 400, '10010');
      // Tokens last two hours of the service's clock.
      await renewToken(ctx, partner);
    });

    it('answers a refused live read with its aggregation status code', async () => {
      const other = await addCustomer(ctx, partner);
      const checking = ofType(await linkProfile(ctx, partner, other, 'profile_01'), 'checking');
      const set = await ctx.app.inject({
        method: 'PUT',
        url: `/sandbox/v1/customers/${other}/institutionLogins/${checking.institutionLoginId}/error`,
        headers: partner.headers,
        payload: { code: 103 },
      });
      expect(set.statusCode, set.body).toBe(200);
      await refused(partner, PATHS.live(other, checking.id), 400, '103');
      // The stored balance still answers, with the status of the last attempt.
      expect((await ok<BalanceJson>(partner, PATHS.balance(other, checking.id))).aggregationStatusCode).toBe(103);
    });

    it("answers a loan's and a mortgage's payment details from the lender's instructions", async () => {
      for (const [type, lender] of [
        ['mortgage', 'FinBank Home Lending'],
        ['loan', 'FinBank Student Lending'],
      ] as const) {
        const loan = ofType(accounts, type);
        const row = await storedAccount(loan.id);
        const detail = JSON.parse(row.detail!) as { payoffAmount: number };
        const details = await ok<Record<string, any>>(partner, PATHS.loan(customerId, loan.id));
        expect(details.loanNumber).toBe(row.number);
        expect(details.loanPaymentNumber).toMatch(new RegExp(`^${row.number}\\d$`));
        expect(details.loanPaymentAddress).toMatch(new RegExp(`^${lender}, PO Box \\d{5}, Salt Lake City, UT 84130$`));
        const payoffDate = new Date(Number(row.balance_date) * 1000).toISOString().replace('.000Z', 'Z');
        expect(details.accountDetail).toEqual({
          accountId: String(loan.id),
          accountNumber: row.number,
          accountPaymentNumber: details.loanPaymentNumber,
          accountPaymentAddress: details.loanPaymentAddress,
          accountFuturePayoffAmount: detail.payoffAmount,
          accountFuturePayoffDate: payoffDate,
          loanDetail: [
            {
              accountId: String(loan.id),
              loanNumber: row.number,
              loanPaymentNumber: details.loanPaymentNumber,
              loanPaymentAddress: details.loanPaymentAddress,
              loanFuturePayoffAmount: detail.payoffAmount,
              loanFuturePayoffDate: payoffDate,
            },
          ],
        });
        const asXml = xml.parse((await call(partner, PATHS.loan(customerId, loan.id), { accept: 'application/xml' })).body);
        expect(asXml.loanPaymentDetails.accountDetail.loanDetail[0].loanPaymentAddress).toBe(details.loanPaymentAddress);
      }
      for (const type of ['checking', 'creditCard', 'lineOfCredit']) {
        await refused(partner, PATHS.loan(customerId, ofType(accounts, type).id), 400, '14020');
      }
    });

    it("answers the owners of a joint household's accounts, v1 and v3", async () => {
      const household = await addCustomer(ctx, partner);
      const joint = ofType(await linkProfile(ctx, partner, household, 'profile_03'), 'checking');
      const owner = await ok<Record<string, unknown>>(partner, PATHS.owner(household, joint.id));
      expect(owner).toEqual({ ownerName: 'Sam and Taylor Rivera', ownerAddress: '782 Willow Creek Rd Columbus OH 43214', asOfDate: nowOf(ctx) });
      const details = await ok<{ holders: HolderJson[] }>(partner, PATHS.ownerDetails(household, joint.id));
      expect(details.holders).toHaveLength(2);
      expect(details.holders[0]).toEqual({
        relationship: 'PRIMARY_JOINT',
        ownerName: 'Samuel A Rivera Jr',
        firstName: 'Samuel',
        middleName: 'A',
        lastName: 'Rivera',
        suffix: 'Jr',
        nameClassification: 'person',
        nameClassificationconfidencescore: 1,
        nameClassificationConfidenceScore: 1,
        addresses: [
          {
            ownerAddress: '782 Willow Creek Rd Columbus OH 43214',
            type: 'Home',
            line1: '782 Willow Creek Rd',
            city: 'Columbus',
            state: 'OH',
            postalCode: '43214',
            country: 'US',
          },
        ],
        emails: [{ isPrimary: true, email: 'sam.rivera@example.com', emailType: 'Personal' }],
        phones: [
          { type: 'CELL', country: '1', phone: '614-555-0121' },
          { type: 'HOME', country: '1', phone: '614-555-0100' },
        ],
      });
      expect(details.holders[1]).toMatchObject({ relationship: 'SECONDARY_JOINT', ownerName: 'Taylor M Rivera' });
      const asXml = xml.parse((await call(partner, `${PATHS.ownerDetails(household, joint.id)}?withInsights=true`, { accept: 'application/xml' })).body);
      expect(asXml.accountOwnerHolders.holders.map((h: HolderJson) => h.ownerName)).toEqual(['Samuel A Rivera Jr', 'Taylor M Rivera']);
      expect(asXml.accountOwnerHolders.holders[0].phones).toHaveLength(2);
      expect(xml.parse((await call(partner, PATHS.owner(household, joint.id), { accept: 'application/xml' })).body).accountOwner.ownerName).toBe(
        'Sam and Taylor Rivera',
      );

      // A business's holder is classified as one.
      const business = await addCustomer(ctx, partner);
      const operating = ofType(await linkProfile(ctx, partner, business, 'small_business'), 'checking');
      const holders = (await ok<{ holders: HolderJson[] }>(partner, PATHS.ownerDetails(business, operating.id))).holders;
      expect(holders.map((h) => [h.ownerName, h.nameClassification, h.relationship])).toEqual([
        ['Harbor Street Cafe LLC', 'business', 'BUSINESS'],
        ['Dana Whitfield', 'person', 'AUTHORIZED_USER'],
      ]);
    });

    it('scores exact, partial and mismatched owner details', async () => {
      const household = await addCustomer(ctx, partner);
      const joint = ofType(await linkProfile(ctx, partner, household, 'profile_03'), 'checking');
      const match = async (payload: object, accept = 'application/json') => {
        const res = await call(partner, PATHS.match(household, joint.id), { method: 'POST', payload, accept });
        expect(res.statusCode, res.body).toBe(200);
        const holders: HolderJson[] =
          accept === 'application/json' ? res.json<{ holders: HolderJson[] }>().holders : xml.parse(res.body).accountOwnerVerificationMatchResults.holders;
        return holders;
      };

      const exact = await match({
        name: { firstName: 'Samuel', middleName: 'A', lastName: 'Rivera', suffix: 'Jr' },
        address: { line1: '782 Willow Creek Rd', city: 'Columbus', state: 'OH', postalCode: '43214', country: 'US', type: 'Home' },
        phone: '6145550121',
        email: 'sam.rivera@example.com',
      });
      const sam = exact[0]!;
      expect(sam.nameScores).toEqual({ ownerName: 100, firstName: 100, middleName: 100, lastName: 100, suffix: 100 });
      expect(sam.addresses[0]!.addressScores).toEqual({ ownerAddress: 100, line1: 100, city: 100, state: 100, postalCode: 100, country: 100, type: 100 });
      expect(sam.emails[0]!.emailScores).toEqual({ email: 100 });
      expect(sam.phones.map((p) => p.phoneScores)).toEqual([{ phone: 100 }, { phone: 50 }]);
      // The other holder of the account shares the last name and the address, not the first name or the e-mail.
      const taylor = exact[1]!;
      expect(taylor.nameScores!.lastName).toBe(100);
      expect(taylor.nameScores!.firstName).toBeLessThan(50);
      expect(taylor.addresses[0]!.addressScores!.ownerAddress).toBe(100);
      expect(taylor.emails[0]!.emailScores!.email).toBeLessThan(70);

      // Spelled otherwise: a nickname, the street type written out, a state's name, a ZIP+4, other case.
      const partial = (
        await match({
          name: { firstName: 'Sam', lastName: 'RIVERA', suffix: 'Junior' },
          address: { line1: '782 Willow Creek Road', city: 'columbus', state: 'Ohio', postalCode: '43214-2210', country: 'us' },
          phone: '6145550112',
          email: 'Sam.Rivera@Example.org',
        })
      )[0]!;
      expect(partial.nameScores).toEqual({ ownerName: expect.any(Number), firstName: 50, lastName: 100, suffix: 100 });
      expect(partial.nameScores!.ownerName).toBeGreaterThan(70);
      expect(partial.nameScores!.ownerName).toBeLessThan(100);
      expect(partial.addresses[0]!.addressScores).toEqual({ ownerAddress: 100, line1: 100, city: 100, state: 100, postalCode: 100, country: 100 });
      expect(partial.phones[0]!.phoneScores!.phone).toBe(75);
      expect(partial.emails[0]!.emailScores!.email).toBeGreaterThan(70);
      expect(partial.emails[0]!.emailScores!.email).toBeLessThan(100);

      // Someone else entirely.
      const other = (
        await match(
          {
            name: { firstName: 'Jordan', lastName: 'Lee' },
            address: { line1: '1458 Aspen Ridge Dr', city: 'Denver', state: 'CO', postalCode: '80211' },
            phone: '7205550183',
            email: 'jordan.lee@example.net',
          },
          'application/xml',
        )
      )[0]!;
      expect(Number(other.nameScores!.ownerName)).toBeLessThan(30);
      expect(Number(other.nameScores!.lastName)).toBeLessThan(30);
      expect(Number(other.addresses[0]!.addressScores!.line1)).toBeLessThan(50);
      expect(Number(other.addresses[0]!.addressScores!.state)).toBe(0);
      expect(Number(other.addresses[0]!.addressScores!.postalCode)).toBe(0);
      // The name alone: only name scores.
      const nameOnly = (await match({ name: { firstName: 'Taylor', lastName: 'Rivera' } }))[1]!;
      expect(nameOnly.nameScores).toEqual({ ownerName: 80, firstName: 100, lastName: 100 });
      expect(nameOnly.addresses[0]!.addressScores).toBeUndefined();
      expect(nameOnly.emails[0]!.emailScores).toBeUndefined();
      expect(nameOnly.phones[0]!.phoneScores).toBeUndefined();

      // The name is required; the phone is digits only.
      await refused(partner, PATHS.match(household, joint.id), 400, '10005', { method: 'POST', payload: { name: { firstName: 'Sam' } } });
      await refused(partner, PATHS.match(household, joint.id), 400, '10005', { method: 'POST', payload: { phone: '6145550121' } });
      await refused(partner, PATHS.match(household, joint.id), 400, '10010', {
        method: 'POST',
        payload: { name: { firstName: 'Sam', lastName: 'Rivera' }, phone: '(614) 555-0121' },
      });
    });

    it("answers 404 for another partner's customer or account, and for unknown ids, on every operation", async () => {
      const checking = ofType(accounts, 'checking');
      const theirs = await addCustomer(ctx, stranger);
      const body = { method: 'POST' as const, payload: { name: { firstName: 'Jordan', lastName: 'Lee' } } };
      for (const [path, options] of [
        [PATHS.ach, {}],
        [PATHS.instructions, {}],
        [PATHS.balance, {}],
        [PATHS.live, {}],
        [PATHS.loan, {}],
        [PATHS.owner, {}],
        [PATHS.ownerDetails, {}],
        [PATHS.match, body],
      ] as const) {
        await refused(stranger, path(customerId, checking.id), 404, '14001', options);
        await refused(stranger, path(theirs, checking.id), 404, '14001', options);
        await refused(partner, path(customerId, '5099999999'), 404, '14001', options);
        await refused(partner, path(customerId, 'not-an-id'), 404, '14001', options);
      }
    });
  });

  describe('OFX Direct Connect', () => {
    let customerId: string;
    let accounts: AccountJson[];
    beforeAll(async () => {
      customerId = await addCustomer(ctx, production, { type: 'active' });
      const res = await call(production, `/aggregation/v1/customers/${customerId}/institutions/${ofxInstitution}/accounts/addall`, {
        method: 'POST',
        payload: {
          credentials: [
            { id: `${ofxInstitution}001`, value: 'alice' },
            { id: `${ofxInstitution}002`, value: 'secret-1' },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      accounts = res.json<{ accounts: AccountJson[] }>().accounts;
    });

    it("answers the server's BANKID and ACCTID as ACH details; cards and owners are not available", async () => {
      const checking = ofType(accounts, 'checking');
      expect(await ok<AchJson>(production, PATHS.ach(customerId, checking.id))).toEqual({ routingNumber: OFX_ROUTING, realAccountNumber: OFX_CHECKING });
      expect(await ok(production, PATHS.instructions(customerId, checking.id))).toEqual({
        paymentInstruction: [{ type: 'ach', accountNumber: OFX_CHECKING, tanEnabled: false, descriptors: [{ type: 'routingNumber', value: OFX_ROUTING }] }],
      });
      await refused(production, PATHS.loan(customerId, checking.id), 400, '14020');
      await refused(production, PATHS.ach(customerId, ofType(accounts, 'creditCard').id), 400, '14020');
      const error = await refused(production, PATHS.owner(customerId, checking.id), 404, '12017');
      expect(error.message).toBe('No Account Owners Details Found.');
      await refused(production, PATHS.ownerDetails(customerId, checking.id), 404, '12017');
      await refused(production, PATHS.match(customerId, checking.id), 404, '12017', {
        method: 'POST',
        payload: { name: { firstName: 'Alice', lastName: 'Doe' } },
      });
    });

    it('reads the live balance from the server', async () => {
      const checking = ofType(accounts, 'checking');
      expect(await ok<BalanceJson>(production, PATHS.balance(customerId, checking.id))).toMatchObject({ availableBalance: 1480.75, clearedBalance: 1520.75 });
      ofx.setAccounts('alice', ofxAccounts(2001.5));
      const before = ofx.requests.length;
      const live = await ok<BalanceJson>(production, PATHS.live(customerId, checking.id, '?balance_cache_interval=0'));
      expect(ofx.requests.length).toBeGreaterThan(before);
      expect(live).toMatchObject({
        id: Number(checking.id),
        realAccountNumberLast4: '6789',
        availableBalance: 1961.5,
        clearedBalance: 2001.5,
        aggregationStatusCode: 0,
      });
    });
  });

  describe('statement files', () => {
    it("answers an uploaded OFX file's BANKID and ACCTID, its balance, and no live balance", async () => {
      const customerId = await addCustomer(ctx, partner);
      const file = ofxStatementFile(
        [{ acctId: FILE_CHECKING, balance: 3058.17, transactions: [{ fitId: 'F1', date: '20260110', amount: -12.5, name: 'COFFEE' }] }],
        '20260115',
      );
      const { accounts } = await uploadStatementOk(ctx, partner, customerId, file, { type: 'application/x-ofx' });
      const account = accounts[0]!;
      expect(await ok<AchJson>(partner, PATHS.ach(customerId, account.id))).toEqual({ routingNumber: FILE_ROUTING, realAccountNumber: FILE_CHECKING });
      expect(await ok<BalanceJson>(partner, PATHS.balance(customerId, account.id))).toMatchObject({ clearedBalance: 3058.17, realAccountNumberLast4: '0123' });
      const live = await refused(partner, PATHS.live(customerId, account.id), 400, '14020');
      expect(live.message).toMatch(/statement files/);
      await refused(partner, PATHS.owner(customerId, account.id), 404, '12017');
    });

    it('answers no ACH details for a CSV file, and its balance only where the file states one', async () => {
      const customerId = await addCustomer(ctx, partner);
      const withBalance = ['Date,Description,Amount,Balance,Account Number', '01/10/2026,COFFEE ROASTERS,-4.50,995.50,5500111122223333', ''].join('\n');
      const stated = (await uploadStatementOk(ctx, partner, customerId, withBalance, { type: 'text/csv' })).accounts[0]!;
      const error = await refused(partner, PATHS.ach(customerId, stated.id), 400, '14020');
      expect(error.message).toMatch(/no routing number/);
      expect(await ok<BalanceJson>(partner, PATHS.balance(customerId, stated.id))).toMatchObject({ clearedBalance: 995.5, availableBalance: 995.5 });

      const other = await addCustomer(ctx, partner);
      const withoutBalance = ['Date,Description,Amount', '01/10/2026,COFFEE ROASTERS,-4.50', ''].join('\n');
      const unstated = (await uploadStatementOk(ctx, partner, other, withoutBalance, { type: 'text/csv' })).accounts[0]!;
      expect((await refused(partner, PATHS.balance(other, unstated.id), 400, '14020')).message).toMatch(/states a balance/);
    });
  });

  describe('SimpleFIN', () => {
    it('answers balances but no ACH details or owners: bridges give no numbers', async () => {
      const customerId = await addCustomer(ctx, production, { type: 'active' });
      const token = bridge.createSetupToken({ accounts: demoAccounts(nowOf(ctx)) });
      const res = await call(production, `/aggregation/v1/customers/${customerId}/institutions/${SIMPLEFIN_INSTITUTION_ID}/accounts/addall`, {
        method: 'POST',
        payload: loginForm(SIMPLEFIN_INSTITUTION_ID, token),
      });
      expect(res.statusCode, res.body).toBe(200);
      const accounts = res.json<{ accounts: AccountJson[] }>().accounts;
      const checking = ofType(accounts, 'checking');
      const error = await refused(production, PATHS.ach(customerId, checking.id), 400, '14020');
      expect(error.message).toMatch(/no routing number/);
      await refused(production, PATHS.instructions(customerId, checking.id), 400, '14020');
      await refused(production, PATHS.ach(customerId, ofType(accounts, 'creditCard').id), 400, '14020');
      await refused(production, PATHS.ownerDetails(customerId, checking.id), 404, '12017');
      expect(await ok<BalanceJson>(production, PATHS.balance(customerId, checking.id))).toMatchObject({
        realAccountNumberLast4: '1234',
        availableBalance: 1490.75,
        clearedBalance: 1520.75,
      });
      // Live: one read of the bridge.
      const before = bridge.accountRequests().length;
      const live = await ok<BalanceJson>(production, PATHS.live(customerId, checking.id, '?balance_cache_interval=0'));
      expect(bridge.accountRequests().length).toBe(before + 1);
      expect(live).toMatchObject({ availableBalance: 1490.75, clearedBalance: 1520.75, aggregationStatusCode: 0 });
    });
  });

  describe('product flags of the institutions', () => {
    const flags = async (id: number) => {
      const { institution } = await ok<{ institution: Record<string, unknown> }>(partner, `/institution/v2/institutions/${id}`);
      return {
        ach: institution.ach,
        aha: institution.aha,
        availBalance: institution.availBalance,
        accountOwner: institution.accountOwner,
        loanPaymentDetails: institution.loanPaymentDetails,
      };
    };

    it('shows true exactly where the source gives what the product needs', async () => {
      expect(await flags(FINBANK)).toEqual({ ach: true, aha: true, availBalance: true, accountOwner: true, loanPaymentDetails: true });
      expect(await flags(ofxInstitution)).toEqual({ ach: true, aha: true, availBalance: true, accountOwner: false, loanPaymentDetails: false });
      expect(await flags(SIMPLEFIN_INSTITUTION_ID)).toEqual({ ach: false, aha: false, availBalance: true, accountOwner: false, loanPaymentDetails: false });
    });
  });

  it('keeps the full numbers of ACH and loan answers out of the request log', async () => {
    const customerId = await addCustomer(ctx, partner);
    const accounts = await linkProfile(ctx, partner, customerId, 'profile_02');
    const checking = ofType(accounts, 'checking');
    const mortgage = ofType(accounts, 'mortgage');
    const full = [(await storedAccount(checking.id)).number, (await storedAccount(mortgage.id)).number];
    await ok(partner, PATHS.ach(customerId, checking.id));
    await ok(partner, PATHS.instructions(customerId, checking.id));
    await call(partner, PATHS.ach(customerId, checking.id), { accept: 'application/xml' });
    await ok(partner, PATHS.loan(customerId, mortgage.id));
    await ctx.app.requestLog.flush();
    const logged = await ctx.runtime.database.kysely
      .selectFrom('request_log')
      .selectAll()
      .where('path', 'like', `%/customers/${customerId}/accounts/%`)
      .execute();
    expect(logged.length).toBeGreaterThanOrEqual(4);
    const text = JSON.stringify(logged);
    for (const number of full) expect(text).not.toContain(number);
    const answers = logged.filter((r) => /\/(details|loanDetails)$/.test(r.path));
    expect(answers).toHaveLength(4);
    for (const r of answers) {
      expect(r.response_body).toBe('[not stored: full account numbers]');
      expect(Number(r.response_bytes)).toBeGreaterThan(0);
    }
    // Refusals are kept as they are.
    await refused(partner, PATHS.ach(customerId, ofType(accounts, 'creditCard').id), 400, '14020');
    await ctx.app.requestLog.flush();
    const refusal = await ctx.runtime.database.kysely
      .selectFrom('request_log')
      .selectAll()
      .where('status', '=', 400)
      .where('path', 'like', `%/customers/${customerId}/%`)
      .executeTakeFirstOrThrow();
    expect(refusal.response_body).toContain('14020');
  });
});

describe('migration 0036 on a database made before it', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ensureInstitutionCatalog(ctx.runtime.database);
  });
  afterAll(() => ctx?.close());

  it("turns on ACH and history for the OFX institutions it already had, moving the catalogue's version on", async () => {
    const institution = await addOfxInstitution(
      ctx.runtime.database,
      'sandbox',
      { name: 'Older Test Bank', url: 'https://ofx.older.example/ofx', fid: '1', org: 'OLD' },
      nowOf(ctx),
    );
    const migrator = new Migrator({
      db: ctx.runtime.database.kysely as unknown as Kysely<unknown>,
      provider: { getMigrations: async () => migrations },
      allowUnorderedMigrations: true,
      ...(ctx.db.pgSchema ? { migrationTableSchema: ctx.db.pgSchema } : {}),
    });
    expect((await migrator.migrateTo('0035_consumers')).error).toBeUndefined();
    const raw = ctx.runtime.database.kysely;
    // As the OFX institutions of such a database were made: transaction aggregation and balances only.
    await raw.updateTable('institutions').set({ ach: 0, aha: 0, ps_ach: 'unsupported', ps_aha: 'unsupported' }).where('id', '=', institution).execute();
    const before = await raw.selectFrom('institution_catalog').select('version').executeTakeFirstOrThrow();
    await migrateToLatest(ctx.runtime.database);
    const row = await raw.selectFrom('institutions').selectAll().where('id', '=', institution).executeTakeFirstOrThrow();
    expect([row.ach, row.aha, row.avail_balance, row.account_owner, row.loan_payment_details, row.ps_ach, row.ps_aha]).toEqual([
      1,
      1,
      1,
      0,
      0,
      'online',
      'online',
    ]);
    const after = await raw.selectFrom('institution_catalog').select('version').executeTakeFirstOrThrow();
    expect(Number(after.version)).toBe(Number(before.version) + 1);
    expect(Number(row.changed_version)).toBe(Number(after.version));
    // Institutions no source serves keep the catalogue's own flags; SimpleFIN Bridge has no ACH.
    const simplefin = await raw.selectFrom('institutions').selectAll().where('id', '=', SIMPLEFIN_INSTITUTION_ID).executeTakeFirstOrThrow();
    expect([simplefin.ach, simplefin.aha, simplefin.avail_balance]).toEqual([0, 0, 1]);
  });
});
