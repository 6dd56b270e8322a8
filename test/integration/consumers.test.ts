import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { CONSUMER, consumerBody, createConsumer, customerConsumerUrl } from '../helpers/consumers.js';
import { dashboardSignIn, SAME_ORIGIN } from '../helpers/dashboard.js';

const xml = new XMLParser({ parseTagValue: false });
const ID = /^[0-9a-f]{32}$/;

describe('consumers', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let other: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    other = await partnerWithToken(ctx);
  });
  afterAll(() => ctx.close());

  const now = () => Math.floor(ctx.clock.now() / 1000);
  const send = (method: 'POST' | 'PUT', url: string, payload: unknown, who: TestPartner = partner) =>
    ctx.app.inject({ method, url, headers: { ...who.headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  const get = (url: string, who: TestPartner = partner, accept = 'application/json') =>
    ctx.app.inject({ method: 'GET', url, headers: { ...who.headers, accept } });
  const sendXml = (method: 'POST' | 'PUT', url: string, body: string) =>
    ctx.app.inject({ method, url, headers: { ...partner.headers, 'content-type': 'application/xml', accept: 'application/xml' }, payload: body });

  describe('creating and reading', () => {
    it('creates a consumer (201 with a 32-digit hexadecimal id, the date and the numeric customer id) and reads it by id and by customer', async () => {
      const customerId = await addCustomer(ctx, partner);
      const res = await send('POST', customerConsumerUrl(customerId), consumerBody());
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json();
      expect(created).toEqual({ id: expect.stringMatching(ID), createdDate: now(), customerId: Number(customerId) });
      const expected = {
        id: created.id,
        customerId: Number(customerId),
        firstName: 'John',
        lastName: 'Doe',
        address: '434 W Ascension Way',
        city: 'Murray',
        state: 'UT',
        zip: '84123',
        phone: '1-801-984-4200',
        ssn: '8989',
        birthday: { year: 1989, month: 12, dayOfMonth: 13 },
        email: 'someone@example.com',
        suffix: 'PhD',
        createdDate: now(),
        endUser: consumerBody().endUser,
      };
      const byId = await get(`${CONSUMER}/${created.id}`);
      expect(byId.statusCode).toBe(200);
      expect(byId.json()).toEqual(expected);
      const byCustomer = await get(customerConsumerUrl(customerId));
      expect(byCustomer.statusCode).toBe(200);
      expect(byCustomer.json()).toEqual(expected);
    });

    it('answers fields the consumer was created without as empty strings and the birthday as an empty object', async () => {
      const customerId = await addCustomer(ctx, partner);
      const id = await createConsumer(ctx, partner, customerId, {
        firstName: 'Jane',
        lastName: 'Smith',
        state: 'ut',
        ssn: '987654321',
        email: 'jane@example.com',
      });
      expect((await get(`${CONSUMER}/${id}`)).json()).toEqual({
        id,
        customerId: Number(customerId),
        firstName: 'Jane',
        lastName: 'Smith',
        address: '',
        city: '',
        state: 'UT',
        zip: '',
        phone: '',
        ssn: '4321',
        birthday: {},
        email: 'jane@example.com',
        createdDate: now(),
      });
    });

    it.each([
      ['ssn and phone', { ssn: '111-22-3333', phone: '1-212-555-1234' }],
      ['ssn and e-mail', { ssn: '111223333', email: 'a@example.com' }],
      ['birthday and phone', { birthday: { year: 1985, month: 5, dayOfMonth: 15 }, phone: '1-212-555-1234' }],
      ['birthday and e-mail', { birthday: { year: 1975, month: 12, dayOfMonth: 25 }, email: 'b@example.com' }],
      ['ssn, birthday and phone', { ssn: '555443333', birthday: { year: 1992, month: 7, dayOfMonth: 4 }, phone: '8015550100' }],
      ['birthday, phone and e-mail', { birthday: { year: 1995, month: 9, dayOfMonth: 30 }, phone: '+1(801)555.0100', email: 'c@example.com' }],
      [
        'a birthday of numbers written as text, as the reference example sends',
        { birthday: { year: '1989', month: '12', dayOfMonth: '13' }, email: 'd@example.com' },
      ],
    ])('accepts a consumer with %s', async (_name, fields) => {
      const customerId = await addCustomer(ctx, partner);
      const res = await send('POST', customerConsumerUrl(customerId), { firstName: 'Alice', lastName: 'Brown', state: 'UT', ...fields });
      expect(res.statusCode, res.body).toBe(201);
    });

    it('keeps a leap day and ignores members the reference example carries but the schema does not (middleName)', async () => {
      const customerId = await addCustomer(ctx, partner);
      const id = await createConsumer(ctx, partner, customerId, { ...consumerBody(), middleName: 'Q', birthday: { year: 2000, month: 2, dayOfMonth: 29 } });
      const consumer = (await get(`${CONSUMER}/${id}`)).json();
      expect(consumer.birthday).toEqual({ year: 2000, month: 2, dayOfMonth: 29 });
      expect(consumer).not.toHaveProperty('middleName');
    });

    it('refuses a second consumer for the customer with 409 (11000), also when two requests race', async () => {
      const customerId = await addCustomer(ctx, partner);
      await createConsumer(ctx, partner, customerId);
      const again = await send('POST', customerConsumerUrl(customerId), consumerBody());
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ code: '11000', message: `A consumer already exists for customer ${customerId}` });

      const raced = await addCustomer(ctx, partner);
      const answers = await Promise.all(Array.from({ length: 4 }, () => send('POST', customerConsumerUrl(raced), consumerBody())));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
      const rows = await ctx.runtime.database.kysely.selectFrom('consumers').select('id').where('customer_id', '=', Number(raced)).execute();
      expect(rows).toHaveLength(1);
    });

    it('answers 404 (14001) for a customer without a consumer, an unknown or malformed consumer id', async () => {
      const customerId = await addCustomer(ctx, partner);
      const none = await get(customerConsumerUrl(customerId));
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ code: '14001', message: `Cannot find consumer for customer with id ${customerId}.` });
      for (const id of ['0bf46322c167b562e6cbed9d40e19a4c', 'not-an-id', '0BF46322C167B562E6CBED9D40E19A4', 'x'.repeat(200)]) {
        const res = await get(`${CONSUMER}/${id}`);
        expect(res.statusCode, id).toBe(404);
        expect(res.json(), id).toEqual({ code: '14001', message: `Cannot find consumer with id ${id}.` });
        const put = await send('PUT', `${CONSUMER}/${id}`, { city: 'Provo' });
        expect(put.statusCode, id).toBe(404);
      }
      for (const url of [customerConsumerUrl('9999999999'), customerConsumerUrl('abc')]) {
        expect((await get(url)).json(), url).toEqual({ code: '14001', message: 'Customer not found.' });
        expect((await send('POST', url, consumerBody())).statusCode, url).toBe(404);
      }
    });
  });

  describe('validation', () => {
    let customerId: string;
    beforeAll(async () => {
      customerId = await addCustomer(ctx, partner);
    });

    const refused = async (body: Record<string, unknown>) => {
      const res = await send('POST', customerConsumerUrl(customerId), body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json() as { code: string; message: string };
    };

    it.each([
      ['an SSN of 8 digits', { ssn: '12345678' }, 'ssn', /9 digits/],
      ['an SSN of letters', { ssn: 'abc-de-fghi' }, 'ssn', /9 digits/],
      ['an SSN with spaces', { ssn: '123 45 6789' }, 'ssn', /9 digits/],
      ['a phone of 16 characters', { phone: '1-801-984-4200-1' }, 'phone', /15 characters/],
      ['a phone with letters', { phone: '1-801-CALL-NOW' }, 'phone', /digits/],
      ['a phone of too few digits', { phone: '12-34' }, 'phone', /7 digits/],
      ['an e-mail without @', { email: 'someone.example.com' }, 'email', /e-mail address/],
      ['a ZIP code of 4 digits', { zip: '8412' }, 'zip', /5 digits/],
      ['a ZIP code with letters', { zip: 'SW1A 1AA' }, 'zip', /5 digits/],
      ['a state name instead of its code', { state: 'Utah' }, 'state', /two-letter US state code/],
      ['a state that is not a US one', { state: 'ON' }, 'state', /two-letter US state code/],
      ['a birthday without its day', { birthday: { year: 1989, month: 12 } }, 'birthday', /year, month and dayOfMonth/],
      ['the 30th of February', { birthday: { year: 1989, month: 2, dayOfMonth: 30 } }, 'birthday', /calendar day/],
      ['the 29th of February of a common year', { birthday: { year: 2001, month: 2, dayOfMonth: 29 } }, 'birthday', /calendar day/],
      ['a 13th month', { birthday: { year: 1989, month: 13, dayOfMonth: 1 } }, 'birthday', /calendar day/],
      ['a two-digit year', { birthday: { year: 89, month: 1, dayOfMonth: 1 } }, 'birthday', /calendar day/],
      ['a birthday before 1900', { birthday: { year: 1899, month: 12, dayOfMonth: 31 } }, 'birthday', /from 1900 to today/],
      ['a birthday tomorrow', { birthday: { year: 2026, month: 1, dayOfMonth: 16 } }, 'birthday', /from 1900 to today/],
      ['a first name of 256 characters', { firstName: 'J'.repeat(256) }, 'firstName', /255 characters/],
      ['a control character in the city', { city: 'Mur\u0007ray' }, 'city', /Control characters/],
      ['an end user URL of one character', { endUser: { ...consumerBody().endUser, url: 'x' } }, 'endUser.url', /2 to 999/],
      ['an end user with a bad phone', { endUser: { ...consumerBody().endUser, phone: 'call me' } }, 'endUser.phone', /digits/],
    ])('refuses %s with 400 (10100) naming the field', async (_name, fields, field, rule) => {
      const body = await refused({ ...consumerBody(), ...fields });
      expect(body.code).toBe('10100');
      expect(body.message).toMatch(new RegExp(`^Invalid format for field consumer\\.${field.replace('.', '\\.')}\\. `));
      expect(body.message).toMatch(rule);
    });

    it('never repeats the SSN it refuses', async () => {
      const body = await refused({ ...consumerBody(), ssn: '123-45-67890' });
      expect(body.message).not.toContain('67890');
    });

    it('accepts a birthday of today, ZIP+4 and a state in lower case', async () => {
      const ok = await addCustomer(ctx, partner);
      const id = await createConsumer(ctx, partner, ok, {
        ...consumerBody(),
        zip: '84123-4567',
        state: 'dc',
        birthday: { year: 2026, month: 1, dayOfMonth: 15 },
      });
      expect((await get(`${CONSUMER}/${id}`)).json()).toMatchObject({ zip: '84123-4567', state: 'DC', birthday: { year: 2026, month: 1, dayOfMonth: 15 } });
    });

    it.each([
      ['firstName', { firstName: undefined }, 'Missing parameter (firstName)'],
      ['lastName (blank)', { lastName: '   ' }, 'Missing parameter (lastName)'],
      ['state, as one reference example leaves out', { state: undefined }, 'Missing parameter (state)'],
      ['ssn and birthday', { ssn: undefined, birthday: undefined }, 'Missing parameter (ssn or birthday): give either or both.'],
      ['phone and email (blank)', { phone: undefined, email: '' }, 'Missing parameter (phone or email): give either or both.'],
      ["the end user's zip", { endUser: { ...consumerBody().endUser, zip: undefined } }, 'Missing parameter (endUser.zip)'],
    ])('refuses a consumer without %s with 400 (10005)', async (_name, fields, message) => {
      expect(await refused({ ...consumerBody(), ...fields })).toEqual({ code: '10005', message });
    });

    it('refuses wrong types with 400 (10010) and an empty body with 10005', async () => {
      expect((await refused({ ...consumerBody(), birthday: { year: 'nineteen', month: 1, dayOfMonth: 1 } })).code).toBe('10010');
      expect((await refused({ ...consumerBody(), endUser: 'Acme' })).code).toBe('10010');
      expect((await refused({})).code).toBe('10005');
      expect(await ctx.runtime.database.kysely.selectFrom('consumers').select('id').where('customer_id', '=', Number(customerId)).execute()).toEqual([]);
    });
  });

  describe('modifying', () => {
    it('changes the fields given (204) and leaves the others', async () => {
      const customerId = await addCustomer(ctx, partner);
      const id = await createConsumer(ctx, partner, customerId);
      const before = (await get(`${CONSUMER}/${id}`)).json();
      ctx.clock.advance(60_000);
      const res = await send('PUT', `${CONSUMER}/${id}`, {
        lastName: 'Roe',
        city: 'Provo',
        ssn: '111-22-3333',
        birthday: { year: 1990, month: 1, dayOfMonth: 2 },
      });
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
      expect((await get(`${CONSUMER}/${id}`)).json()).toEqual({
        ...before,
        lastName: 'Roe',
        city: 'Provo',
        ssn: '3333',
        birthday: { year: 1990, month: 1, dayOfMonth: 2 },
      });
    });

    it('clears an optional field given blank, as long as ssn or birthday and phone or email remain', async () => {
      const customerId = await addCustomer(ctx, partner);
      const id = await createConsumer(ctx, partner, customerId);
      expect((await send('PUT', `${CONSUMER}/${id}`, { address: '', phone: ' ', suffix: '', birthday: {} })).statusCode).toBe(204);
      const after = (await get(`${CONSUMER}/${id}`)).json();
      expect(after).toMatchObject({ address: '', phone: '', birthday: {}, email: 'someone@example.com', ssn: '8989' });
      expect(after).not.toHaveProperty('suffix');
      const noContact = await send('PUT', `${CONSUMER}/${id}`, { email: '' });
      expect(noContact.statusCode).toBe(400);
      expect(noContact.json()).toEqual({ code: '10005', message: 'Missing parameter (phone or email): give either or both.' });
      const noIdentity = await send('PUT', `${CONSUMER}/${id}`, { ssn: '' });
      expect(noIdentity.json()).toEqual({ code: '10005', message: 'Missing parameter (ssn or birthday): give either or both.' });
      expect((await get(`${CONSUMER}/${id}`)).json()).toEqual(after);
    });

    it('refuses blank required fields (10005), bad formats (10100) and a body with no field (10025), changing nothing', async () => {
      const customerId = await addCustomer(ctx, partner);
      const id = await createConsumer(ctx, partner, customerId);
      const before = (await get(`${CONSUMER}/${id}`)).json();
      for (const [body, code] of [
        [{ firstName: '' }, '10005'],
        [{ state: ' ' }, '10005'],
        [{ ssn: '12345' }, '10100'],
        [{ city: 'Ogden', birthday: { year: 1989, month: 2, dayOfMonth: 31 } }, '10100'],
        [{}, '10025'],
        [{ middleName: 'Q' }, '10025'],
      ] as const) {
        const res = await send('PUT', `${CONSUMER}/${id}`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().code, JSON.stringify(body)).toBe(code);
      }
      expect((await get(`${CONSUMER}/${id}`)).json()).toEqual(before);
    });
  });

  describe("another partner's ids", () => {
    it('answer 404 on every operation, changing nothing', async () => {
      const customerId = await addCustomer(ctx, partner);
      const id = await createConsumer(ctx, partner, customerId);
      const before = (await get(`${CONSUMER}/${id}`)).json();
      expect((await get(`${CONSUMER}/${id}`, other)).statusCode).toBe(404);
      expect((await get(customerConsumerUrl(customerId), other)).statusCode).toBe(404);
      expect((await send('PUT', `${CONSUMER}/${id}`, { city: 'Provo' }, other)).statusCode).toBe(404);
      const theirs = await addCustomer(ctx, other);
      expect((await send('POST', customerConsumerUrl(theirs), consumerBody())).statusCode).toBe(404);
      expect((await get(customerConsumerUrl(theirs))).statusCode).toBe(404);
      expect((await get(`${CONSUMER}/${id}`)).json()).toEqual(before);
    });
  });

  describe('XML', () => {
    it('creates, reads and modifies in XML, with the root element consumer', async () => {
      const customerId = await addCustomer(ctx, partner);
      const created = await sendXml(
        'POST',
        customerConsumerUrl(customerId),
        '<?xml version="1.0"?><consumer><firstName>Grace</firstName><lastName>Hopper</lastName><state>NY</state><ssn>123-45-6789</ssn>' +
          '<birthday><year>1906</year><month>12</month><dayOfMonth>9</dayOfMonth></birthday><email>grace@example.com</email></consumer>',
      );
      expect(created.statusCode, created.body).toBe(201);
      expect(created.headers['content-type']).toMatch(/^application\/xml/);
      const doc = xml.parse(created.body);
      expect(doc.consumer).toEqual({ id: expect.stringMatching(ID), createdDate: String(now()), customerId });
      const id = doc.consumer.id as string;

      const modified = await sendXml('PUT', `${CONSUMER}/${id}`, '<consumer><city>Arlington</city><phone/></consumer>');
      expect(modified.statusCode, modified.body).toBe(204);

      const read = await get(`${CONSUMER}/${id}`, partner, 'application/xml');
      expect(read.statusCode).toBe(200);
      expect(xml.parse(read.body).consumer).toEqual({
        id,
        firstName: 'Grace',
        lastName: 'Hopper',
        customerId,
        address: '',
        city: 'Arlington',
        state: 'NY',
        zip: '',
        phone: '',
        ssn: '6789',
        birthday: { year: '1906', month: '12', dayOfMonth: '9' },
        email: 'grace@example.com',
        createdDate: String(now()),
      });
      const byCustomer = await get(customerConsumerUrl(customerId), partner, 'application/xml');
      expect(xml.parse(byCustomer.body).consumer.id).toBe(id);
    });

    it('answers errors in XML', async () => {
      const customerId = await addCustomer(ctx, partner);
      const res = await sendXml(
        'POST',
        customerConsumerUrl(customerId),
        '<consumer><firstName>A</firstName><lastName>B</lastName><state>UT</state><ssn>1</ssn></consumer>',
      );
      expect(res.statusCode).toBe(400);
      expect(xml.parse(res.body).error).toEqual({ code: '10100', message: expect.stringMatching(/^Invalid format for field consumer\.ssn\./) });
    });
  });

  describe('at rest', () => {
    it('keeps the personal data encrypted: the row holds no name, SSN, birthday, phone, e-mail or address', async () => {
      const customerId = await addCustomer(ctx, partner);
      const body = consumerBody();
      const id = await createConsumer(ctx, partner, customerId, { ...body, firstName: 'Wilhelmina', lastName: 'Quarterfield' });
      await send('PUT', `${CONSUMER}/${id}`, { ssn: '246-81-3579' });
      const row = await ctx.runtime.database.kysely.selectFrom('consumers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(Object.keys(row).sort()).toEqual(['created_at', 'customer_id', 'data_encrypted', 'id', 'partner_id', 'updated_at']);
      expect(row.data_encrypted).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      const raw = JSON.stringify(row);
      for (const secret of [
        'Wilhelmina',
        'Quarterfield',
        '246813579',
        '246-81-3579',
        '3579',
        '989898989',
        '1989',
        'Ascension',
        '84123',
        '984-4200',
        'someone@example.com',
        'Acme',
      ]) {
        expect(raw, secret).not.toContain(secret);
      }
    });
  });

  describe('on the dashboard', () => {
    it("shows the customer's consumer as the API answers it, nothing for a customer without one, 404 for another partner's customer", async () => {
      const dashboard = await dashboardSignIn(ctx, partner.partnerId, partner.partnerSecret);
      const customerId = await addCustomer(ctx, partner);
      const url = `/dashboard/api/customers/${customerId}/consumer`;
      const none = await dashboard.call('GET', url);
      expect(none.statusCode).toBe(200);
      expect(none.json()).toEqual({});
      const id = await createConsumer(ctx, partner, customerId);
      const shown = await dashboard.call('GET', url);
      expect(shown.json()).toEqual({ consumer: (await get(`${CONSUMER}/${id}`)).json() });
      expect(shown.json().consumer.ssn).toBe('8989');
      const theirs = await addCustomer(ctx, other);
      expect((await dashboard.call('GET', `/dashboard/api/customers/${theirs}/consumer`)).statusCode).toBe(404);
      expect((await ctx.app.inject({ method: 'GET', url, headers: SAME_ORIGIN })).statusCode).toBe(401);
    });
  });

  describe('deleting the customer', () => {
    it('deletes its consumer', async () => {
      const customerId = await addCustomer(ctx, partner);
      const id = await createConsumer(ctx, partner, customerId);
      const deleted = await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${customerId}`, headers: partner.headers });
      expect(deleted.statusCode).toBe(204);
      expect((await get(`${CONSUMER}/${id}`)).statusCode).toBe(404);
      expect(await ctx.runtime.database.kysely.selectFrom('consumers').select('id').where('id', '=', id).execute()).toEqual([]);
    });
  });
});
