import { sql } from 'kysely';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCanLinkAt, getCustomerForPartner } from '../../src/modules/customers/service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer, uniqueUsername } from '../helpers/customers.js';

const xml = new XMLParser({ parseTagValue: false });
const V1_TESTING = '/aggregation/v1/customers/testing';
const V2_TESTING = '/aggregation/v2/customers/testing';
const ACTIVE = '/aggregation/v2/customers/active';
const CUSTOMERS = '/aggregation/v1/customers';

describe('customers', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let production: TestPartner;
  let other: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    production = await partnerWithToken(ctx, 'production');
    other = await partnerWithToken(ctx);
  });
  afterAll(() => ctx.close());

  const post = (url: string, payload: unknown, who: TestPartner = partner) =>
    ctx.app.inject({ method: 'POST', url, headers: who.headers, payload: payload as Record<string, unknown> });
  const postXml = (url: string, body: string, who: TestPartner = partner) =>
    ctx.app.inject({ method: 'POST', url, headers: { ...who.headers, 'content-type': 'application/xml', accept: 'application/xml' }, payload: body });
  const get = (url: string, who: TestPartner = partner, accept = 'application/json') =>
    ctx.app.inject({ method: 'GET', url, headers: { ...who.headers, accept } });

  describe('adding', () => {
    it('adds a testing customer with v1: 201 with a numeric id and createdDate only', async () => {
      const res = await post(V1_TESTING, { username: uniqueUsername(), firstName: 'Ada', lastName: 'Lovelace' });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['createdDate', 'id']);
      expect(body.id).toMatch(/^\d{10}$/);
      expect(Number(body.id)).toBeGreaterThanOrEqual(1005000000);
      expect(body.createdDate).toBe(Math.floor(ctx.clock.now() / 1000));
    });

    it('adds a testing customer with v2, which also answers the username', async () => {
      const username = uniqueUsername();
      const res = await post(V2_TESTING, { username });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ id: expect.stringMatching(/^\d+$/), username, createdDate: Math.floor(ctx.clock.now() / 1000) });
    });

    it('assigns increasing ids', async () => {
      const a = Number(await addCustomer(ctx, partner));
      const b = Number(await addCustomer(ctx, partner));
      expect(b).toBeGreaterThan(a);
    });

    it('reads and answers XML with the root element customer', async () => {
      const username = uniqueUsername();
      const res = await postXml(
        V2_TESTING,
        `<?xml version="1.0"?><customer><username>${username}</username><firstName>Grace</firstName><lastName>Hopper</lastName></customer>`,
      );
      expect(res.statusCode).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/xml/);
      const doc = xml.parse(res.body);
      expect(doc.customer).toEqual({ id: expect.stringMatching(/^\d+$/), username, createdDate: String(Math.floor(ctx.clock.now() / 1000)) });
      const v1 = xml.parse((await postXml(V1_TESTING, `<customer><username>${uniqueUsername()}</username></customer>`)).body);
      expect(Object.keys(v1.customer).sort()).toEqual(['createdDate', 'id']);
    });

    it('refuses an active customer for a Test Drive partner with 401 and a clear message', async () => {
      const res = await post(ACTIVE, { username: uniqueUsername() });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: '14060', message: expect.stringMatching(/production plan/) });
    });

    it('adds an active customer for a production partner', async () => {
      const username = uniqueUsername();
      const res = await post(ACTIVE, { username }, production);
      expect(res.statusCode).toBe(201);
      const id = res.json().id;
      expect((await get(`${CUSTOMERS}/${id}`, production)).json()).toMatchObject({ id, username, type: 'active' });
    });

    it('requires a username (10005), also when blank', async () => {
      for (const payload of [{}, { username: '' }, { username: '   ' }, { firstName: 'A' }]) {
        const res = await post(V2_TESTING, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ code: '10005', message: 'Missing parameter (username)' });
      }
    });
  });

  describe('username rules', () => {
    const attempt = (username: string) => post(V2_TESTING, { username });

    it('accepts 6 and 255 characters and refuses 5 and 256 with 400 code 110039', async () => {
      const base = uniqueUsername('u').replace(/_/g, '');
      for (const ok of [`${base}xxxxxx`.slice(-6), `${base}${'y'.repeat(255)}`.slice(-255)]) {
        const res = await attempt(ok);
        expect(res.statusCode, ok).toBe(201);
        expect(res.json().username).toBe(ok);
      }
      for (const [bad, count] of [
        ['abcde', 5],
        ['z'.repeat(256), 256],
      ] as const) {
        const res = await attempt(bad);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ code: '110039', message: `Username is not as per the policy: it must be 6 to 255 characters long (it has ${count}).` });
      }
    });

    it.each(['!', '@', '.', '#', '$', '%', '&', '*', '_', '-', '+'])('accepts the special character %s', async (c) => {
      const username = `${uniqueUsername('sp').replace(/[^a-z0-9]/g, '')}${c}${c}`;
      const res = await attempt(username);
      expect(res.statusCode).toBe(201);
      expect((await get(`${CUSTOMERS}/${res.json().id}`)).json().username).toBe(username);
    });

    it.each([' ', '/', '?', '=', ',', ':', ';', '"', "'", '<', '>', '(', ')', '[', ']', '{', '}', '~', '^', '|', '\\', '`'])(
      'refuses %j with 400 code 110039',
      async (c) => {
        const res = await attempt(`abc${c}def`);
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('110039');
        expect(res.json().message).toMatch(/may contain only ASCII letters, digits and ! @ \. # \$ % & \* _ - \+/);
      },
    );

    it.each(['josé_garcia', 'müller.hans', 'иван_петров', 'user😀name', '山田太郎さん'])(
      'refuses the non-ASCII %s with a clear 400, never 500',
      async (username) => {
        const res = await attempt(username);
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('110039');
        expect(res.json().message).toMatch(/non-ASCII characters such as "[^"]+" are not allowed/);
        const viaXml = await postXml(V2_TESTING, `<customer><username>${username}</username></customer>`);
        expect(viaXml.statusCode).toBe(400);
        expect(xml.parse(viaXml.body).error.code).toBe('110039');
      },
    );

    it('refuses a username the partner already has with 409 code 110002, also across v1, v2 and types', async () => {
      const username = uniqueUsername();
      expect((await attempt(username)).statusCode).toBe(201);
      for (const url of [V1_TESTING, V2_TESTING]) {
        const res = await post(url, { username });
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ code: '110002', message: 'Username is not available.' });
      }
      const prodName = uniqueUsername();
      expect((await post(V2_TESTING, { username: prodName }, production)).statusCode).toBe(201);
      expect((await post(ACTIVE, { username: prodName }, production)).statusCode).toBe(409);
    });

    it('treats usernames as case-sensitive and unique per partner only', async () => {
      const username = uniqueUsername('Case');
      expect((await attempt(username)).statusCode).toBe(201);
      expect((await attempt(username.toLowerCase())).statusCode).toBe(201);
      expect((await post(V2_TESTING, { username }, other)).statusCode).toBe(201);
    });

    it('gives one 201 and one 409 when the same username is added twice at once', async () => {
      const username = uniqueUsername();
      const results = await Promise.all([attempt(username), attempt(username)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    });
  });

  describe('names and other fields', () => {
    it('stores optional names, phone, e-mail and application id, and leaves absent ones out', async () => {
      const username = uniqueUsername();
      const res = await post(V2_TESTING, {
        username,
        firstName: ' José ',
        lastName: "O'Brien-Smith",
        phone: '1-801-555-0100',
        email: 'jose@example.com',
        applicationId: 'app-123',
      });
      const id = res.json().id;
      const body = (await get(`${CUSTOMERS}/${id}`)).json();
      expect(body).toEqual({
        id,
        username,
        firstName: 'José',
        lastName: "O'Brien-Smith",
        phone: '1-801-555-0100',
        email: 'jose@example.com',
        type: 'testing',
        createdDate: expect.any(Number),
        lastModifiedDate: expect.any(Number),
        applicationId: 'app-123',
      });
      const bare = (await get(`${CUSTOMERS}/${await addCustomer(ctx, partner)}`)).json();
      expect(Object.keys(bare).sort()).toEqual(['createdDate', 'id', 'lastModifiedDate', 'type', 'username']);
    });

    it('refuses names with odd characters (45003) and malformed e-mail or phone (10010)', async () => {
      const bad = await post(V2_TESTING, { username: uniqueUsername(), firstName: 'Robert<script>' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('45003');
      const long = await post(V2_TESTING, { username: uniqueUsername(), lastName: 'x'.repeat(256) });
      expect(long.json().code).toBe('45003');
      const email = await post(V2_TESTING, { username: uniqueUsername(), email: 'not-an-email' });
      expect(email.statusCode).toBe(400);
      expect(email.json()).toMatchObject({ code: '10010', message: expect.stringContaining('email') });
      const phone = await post(V2_TESTING, { username: uniqueUsername(), phone: 'call me' });
      expect(phone.json().code).toBe('10010');
    });
  });

  describe('reading, changing and deleting', () => {
    it('gets a customer in JSON and XML', async () => {
      const username = uniqueUsername();
      const id = await addCustomer(ctx, partner, { username, firstName: 'Alan', lastName: 'Turing' });
      const json = (await get(`${CUSTOMERS}/${id}`)).json();
      expect(json).toMatchObject({ id, username, firstName: 'Alan', lastName: 'Turing', type: 'testing' });
      const res = await get(`${CUSTOMERS}/${id}`, partner, 'application/xml');
      expect(res.body).toMatch(
        new RegExp(
          `^<\\?xml[^>]*\\?><customer><id>${id}</id><username>${username}</username><firstName>Alan</firstName><lastName>Turing</lastName><type>testing</type>`,
        ),
      );
    });

    it('answers 404 code 14001 "Customer not found." for unknown and malformed ids', async () => {
      for (const id of ['1999999999', '1', 'abc', '99999999999999999999', '1005000000x']) {
        const res = await get(`${CUSTOMERS}/${id}`);
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ code: '14001', message: 'Customer not found.' });
      }
      const asXml = await get(`${CUSTOMERS}/1999999999`, partner, 'application/xml');
      expect(xml.parse(asXml.body).error).toEqual({ code: '14001', message: 'Customer not found.' });
    });

    it('modifies first and last name (204), one at a time or both, and moves lastModifiedDate', async () => {
      const id = await addCustomer(ctx, partner, { firstName: 'Old', lastName: 'Name' });
      const put = (payload: unknown) =>
        ctx.app.inject({ method: 'PUT', url: `${CUSTOMERS}/${id}`, headers: partner.headers, payload: payload as Record<string, unknown> });
      ctx.clock.advance(60_000);
      const res = await put({ firstName: 'New' });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      let body = (await get(`${CUSTOMERS}/${id}`)).json();
      expect(body).toMatchObject({ firstName: 'New', lastName: 'Name' });
      expect(body.lastModifiedDate).toBe(body.createdDate + 60);
      expect((await put({ lastName: 'Person', firstName: 'Some' })).statusCode).toBe(204);
      expect((await get(`${CUSTOMERS}/${id}`)).json()).toMatchObject({ firstName: 'Some', lastName: 'Person' });
      expect((await put({ lastName: '' })).statusCode).toBe(204);
      body = (await get(`${CUSTOMERS}/${id}`)).json();
      expect(body.firstName).toBe('Some');
      expect(body).not.toHaveProperty('lastName');
    });

    it('modifies through XML too', async () => {
      const id = await addCustomer(ctx, partner);
      const res = await ctx.app.inject({
        method: 'PUT',
        url: `${CUSTOMERS}/${id}`,
        headers: { ...partner.headers, 'content-type': 'application/xml', accept: 'application/xml' },
        payload: '<customer><firstName>Xml</firstName><lastName>Writer</lastName></customer>',
      });
      expect(res.statusCode).toBe(204);
      expect((await get(`${CUSTOMERS}/${id}`)).json()).toMatchObject({ firstName: 'Xml', lastName: 'Writer' });
    });

    it('refuses a modification without first or last name (10025), ignoring username and type', async () => {
      const id = await addCustomer(ctx, partner);
      for (const payload of [{}, { username: 'changed_name' }, { type: 'active' }]) {
        const res = await ctx.app.inject({ method: 'PUT', url: `${CUSTOMERS}/${id}`, headers: partner.headers, payload });
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('10025');
      }
      expect((await get(`${CUSTOMERS}/${id}`)).json().type).toBe('testing');
    });

    it('deletes a customer (204) and then answers 404 for it', async () => {
      const id = await addCustomer(ctx, partner);
      const del = await ctx.app.inject({ method: 'DELETE', url: `${CUSTOMERS}/${id}`, headers: partner.headers });
      expect(del.statusCode).toBe(204);
      expect((await get(`${CUSTOMERS}/${id}`)).statusCode).toBe(404);
      const again = await ctx.app.inject({ method: 'DELETE', url: `${CUSTOMERS}/${id}`, headers: partner.headers });
      expect(again.statusCode).toBe(404);
    });

    it('removes everything that references the customer when it is deleted', async () => {
      const db = ctx.runtime.database.kysely;
      // A stand-in for the tables other features add (accounts, logins...): same foreign key, same cascade.
      await sql`create table customer_children (id integer primary key, customer_id bigint not null references customers(id) on delete cascade)`.execute(db);
      const keep = await addCustomer(ctx, partner);
      const gone = await addCustomer(ctx, partner);
      await sql`insert into customer_children (id, customer_id) values (1, ${Number(gone)}), (2, ${Number(gone)}), (3, ${Number(keep)})`.execute(db);
      expect((await ctx.app.inject({ method: 'DELETE', url: `${CUSTOMERS}/${gone}`, headers: partner.headers })).statusCode).toBe(204);
      const left = await sql<{ id: number }>`select id from customer_children order by id`.execute(db);
      expect(left.rows.map((r) => Number(r.id))).toEqual([3]);
      await sql`drop table customer_children`.execute(db);
    });
  });

  describe('isolation between partners', () => {
    it("answers another partner's customer id exactly like an unknown id, on every operation", async () => {
      const theirs = await addCustomer(ctx, other, { firstName: 'Private' });
      const unknown = '1999999998';
      for (const [method, payload] of [
        ['GET', undefined],
        ['PUT', { firstName: 'Hijack' }],
        ['DELETE', undefined],
      ] as const) {
        const call = (id: string) => ctx.app.inject({ method, url: `${CUSTOMERS}/${id}`, headers: partner.headers, ...(payload ? { payload } : {}) });
        const [a, b] = [await call(theirs), await call(unknown)];
        expect(a.statusCode, method).toBe(404);
        expect(a.body).toBe(b.body);
      }
      expect((await get(`${CUSTOMERS}/${theirs}`, other)).json()).toMatchObject({ id: theirs, firstName: 'Private' });
    });

    it("lists only the calling partner's customers", async () => {
      const mine = await addCustomer(ctx, partner);
      const theirs = await addCustomer(ctx, other);
      const ids = (await get(`${CUSTOMERS}?limit=1000`)).json().customers.map((c: { id: string }) => c.id);
      expect(ids).toContain(mine);
      expect(ids).not.toContain(theirs);
    });

    it('gives other features a partner-scoped lookup and the institution rule', async () => {
      const id = await addCustomer(ctx, partner);
      const customer = await getCustomerForPartner(ctx.runtime.database.kysely, partner.partnerId, id);
      expect(customer.id).toBe(Number(id));
      await expect(getCustomerForPartner(ctx.runtime.database.kysely, other.partnerId, id)).rejects.toMatchObject({
        status: 404,
        code: '14001',
        message: 'Customer not found.',
      });
      expect((await assertCanLinkAt(ctx.runtime.database, customer, 102105)).name).toBe('FinBank Profiles - A');
      await expect(assertCanLinkAt(ctx.runtime.database, customer, 999_999_999)).rejects.toMatchObject({ status: 404, code: '14006' });
      const chase = (await get('/institution/v2/institutions?search=chase&limit=1')).json().institutions[0];
      await expect(assertCanLinkAt(ctx.runtime.database, customer, chase.id)).rejects.toMatchObject({ status: 403, code: '14061' });
      expect((await assertCanLinkAt(ctx.runtime.database, { type: 'active' }, chase.id)).id).toBe(chase.id);
    });
  });

  describe('NUL characters', () => {
    it('are refused with 400 code 10010 in a query, a path and a body, naming the field, and nothing is stored', async () => {
      const search = await ctx.app.inject({ method: 'GET', url: `${CUSTOMERS}?search=a%00b`, headers: partner.headers });
      expect(search.statusCode).toBe(400);
      expect(search.json()).toMatchObject({ code: '10010', message: expect.stringContaining('(search)') });
      const path = await ctx.app.inject({ method: 'GET', url: `${CUSTOMERS}/1%00`, headers: partner.headers });
      expect(path.statusCode).toBe(400);
      expect(path.json().code).toBe('10010');
      const username = uniqueUsername();
      const body = await post(V2_TESTING, { username: `${username}\u0000x`, firstName: 'A' });
      expect(body.statusCode).toBe(400);
      expect(body.json()).toMatchObject({ code: '10010', message: expect.stringContaining('(username)') });
      const listed = await ctx.app.inject({ method: 'GET', url: `${CUSTOMERS}?username=${username}`, headers: partner.headers });
      expect(listed.json().found).toBe(0);
    });
  });

  describe('listing', () => {
    let lister: TestPartner;
    const usernames: string[] = [];

    beforeAll(async () => {
      lister = await partnerWithToken(ctx, 'production');
      const people = [
        ['Ada', 'Lovelace'],
        ['Alan', 'Turing'],
        ['Grace', 'Hopper'],
        ['Edsger', 'Dijkstra'],
        ['Barbara', 'Liskov'],
        ['Donald', 'Knuth'],
        ['Frances', 'Allen'],
        ['John', 'Backus'],
      ];
      for (const [i, [firstName, lastName]] of people.entries()) {
        const username = `${firstName!.toLowerCase()}_${i}%x`;
        usernames.push(username);
        await addCustomer(ctx, lister, { username, firstName: firstName!, lastName: lastName!, type: i % 3 === 0 ? 'active' : 'testing' });
      }
    });

    const list = async (query: string) => (await get(`${CUSTOMERS}${query}`, lister)).json();

    it('lists all customers in the order they were added, with found, displaying and moreAvailable', async () => {
      const all = await list('');
      expect(all).toMatchObject({ found: 8, displaying: 8, moreAvailable: false });
      expect(all.customers.map((c: { username: string }) => c.username)).toEqual(usernames);
    });

    it('pages with start and limit', async () => {
      const first = await list('?start=1&limit=5');
      expect(first).toMatchObject({ found: 8, displaying: 5, moreAvailable: true });
      const second = await list('?start=6&limit=5');
      expect(second).toMatchObject({ found: 8, displaying: 3, moreAvailable: false });
      expect([...first.customers, ...second.customers].map((c: { username: string }) => c.username)).toEqual(usernames);
      expect(await list('?start=20')).toMatchObject({ found: 8, displaying: 0, moreAvailable: false, customers: [] });
    });

    it('searches usernames and names case-insensitively, with % and _ taken literally', async () => {
      const found = async (q: string) => (await list(`?search=${encodeURIComponent(q)}`)).customers.map((c: { firstName: string }) => c.firstName);
      expect(await found('TURING')).toEqual(['Alan']);
      expect(await found('grace hopper')).toEqual(['Grace']);
      expect(await found('knuth donald')).toEqual(['Donald']);
      expect(await found('ada_0')).toEqual(['Ada']);
      expect(await found('%x')).toHaveLength(8);
      expect(await found('a%')).toEqual([]);
      expect(await found('')).toHaveLength(8);
    });

    it('filters by exact username and by type', async () => {
      expect((await list(`?username=${encodeURIComponent(usernames[2]!)}`)).customers.map((c: { lastName: string }) => c.lastName)).toEqual(['Hopper']);
      expect((await list('?username=GRACE_2%25x')).found).toBe(0);
      expect((await list('?type=active')).customers.map((c: { lastName: string }) => c.lastName)).toEqual(['Lovelace', 'Dijkstra', 'Allen']);
      expect((await list('?type=testing')).found).toBe(5);
      expect((await list('?type=')).found).toBe(8);
    });

    it('refuses a wrong type (14016), start below 1 (41003) and limit outside 1 to 1000 (41004)', async () => {
      expect(await list('?type=premium')).toMatchObject({ code: '14016' });
      expect(await list('?start=0')).toEqual({ code: '41003', message: 'Start index cannot be less than one.' });
      expect(await list('?limit=0')).toEqual({ code: '41004', message: 'Limit cannot be less than one.' });
      expect(await list('?limit=1001')).toEqual({ code: '41004', message: 'Limit cannot be more than 1000.' });
      expect(await list('?start=abc')).toMatchObject({ code: '10010' });
    });

    it('lists in XML with root element root and one customers element per customer', async () => {
      const res = await get(`${CUSTOMERS}?limit=2`, lister, 'application/xml');
      const doc = xml.parse(res.body);
      expect(doc.root).toMatchObject({ found: '8', displaying: '2', moreAvailable: 'true' });
      expect(doc.root.customers).toHaveLength(2);
      expect(doc.root.customers[0]).toMatchObject({ username: usernames[0], firstName: 'Ada', type: 'active' });
    });
  });
});
