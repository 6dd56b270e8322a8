import { describe, expect, it } from 'vitest';
import { RULE_LIMITS } from '../../src/contract/schemas/rules.js';
import { allTransactions, DAY, linkProfile, nowOf, refresh, type TransactionJson } from '../helpers/aggregation.js';
import { partnerWithToken, type TestPartner } from '../helpers/context.js';
import { statementUploads } from '../helpers/statement-uploads.js';

interface RuleJson {
  id: number;
  name?: string;
  position: number;
  conditions: { field: string; operator: string; value: string }[];
  actions: { field: string; value: string }[];
}

const csv = { type: 'text/csv' };
const BAKERY = 'Date,Description,Amount\n2026-11-03,CORNER BAKERY 1234,-4.20\n2026-11-05,NORTHWIND PAYROLL,2450.00\n2026-11-07,CITY PARKING,-12.00\n';
const rule = (conditions: RuleJson['conditions'], actions: RuleJson['actions'], extra: Partial<RuleJson> = {}) => ({ conditions, actions, ...extra });
const categoryOf = (t: TransactionJson) => (t.categorization as { category: string }).category;
const payeeOf = (t: TransactionJson) => (t.categorization as { normalizedPayeeName: string }).normalizedPayeeName;

describe("a partner's transaction rules", () => {
  const files = statementUploads('2026-12-01T12:00:00Z');
  const { customer, uploadOk, transactionsOf } = files;
  const ctx = () => files.ctx;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, who: TestPartner = files.partner, accept = 'application/json') =>
    ctx().app.inject({ method, url, headers: { ...who.headers, accept }, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });
  const create = async (body: unknown, who?: TestPartner) => {
    const res = await call('POST', '/aggregation/v1/partners/rules', body, who);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<RuleJson>();
  };
  const list = async (who?: TestPartner) => (await call('GET', '/aggregation/v1/partners/rules', undefined, who)).json<{ rules: RuleJson[] }>().rules;
  const removeAll = async (who: TestPartner = files.partner) => {
    for (const r of await list(who)) expect((await call('DELETE', `/aggregation/v1/partners/rules/${r.id}`, undefined, who)).statusCode).toBe(204);
  };
  const apply = async (body: unknown = {}, who?: TestPartner) => {
    const res = await call('POST', '/aggregation/v1/partners/rules/apply', body, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ examined: number; modified: number }>();
  };
  const modifiedEvents = async (customerId: string) =>
    (
      await ctx()
        .runtime.database.kysely.selectFrom('aggregation_events')
        .select(['record'])
        .where('customer_id', '=', Number(customerId))
        .where('class', '=', 'transaction')
        .where('type', '=', 'modified')
        .execute()
    ).map((e) => JSON.parse(e.record) as TransactionJson);
  const byDescription = async (customerId: string) => new Map((await transactionsOf(customerId)).map((t) => [t.description as string, t]));

  it('creates, lists in order, replaces and deletes rules, in JSON and XML', async () => {
    await removeAll();
    const later = await create(
      rule([{ field: 'payee', operator: 'contains', value: 'bakery' }], [{ field: 'category', value: 'Food & Dining' }], { position: 5 }),
    );
    const first = await create({ name: 'Parking', ...rule([{ field: 'amount', operator: 'lessThan', value: '-10' }], [{ field: 'memo', value: 'work' }]) });
    expect(first).toMatchObject({
      name: 'Parking',
      position: 0,
      conditions: [{ field: 'amount', operator: 'lessThan', value: '-10' }],
      actions: [{ field: 'memo', value: 'work' }],
    });
    expect((await list()).map((r) => r.id)).toEqual([first.id, later.id]);

    const xml = await call('GET', '/aggregation/v1/partners/rules', undefined, files.partner, 'application/xml');
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('<rules>');
    expect(xml.body).toContain(`<id>${first.id}</id>`);
    expect(xml.body).toContain('<operator>lessThan</operator>');

    const replaced = await call(
      'PUT',
      `/aggregation/v1/partners/rules/${first.id}`,
      rule([{ field: 'description', operator: 'equals', value: ' city parking ' }], [{ field: 'category', value: 'Parking' }], { position: 9 }),
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({
      id: first.id,
      position: 9,
      conditions: [{ value: 'city parking' }],
      actions: [{ field: 'category', value: 'Parking' }],
    });
    expect((await list()).map((r) => r.id)).toEqual([later.id, first.id]);

    expect((await call('DELETE', `/aggregation/v1/partners/rules/${first.id}`)).statusCode).toBe(204);
    const again = await call('DELETE', `/aggregation/v1/partners/rules/${first.id}`);
    expect([again.statusCode, again.json().code]).toEqual([404, '14001']);
    const unknown = await call(
      'PUT',
      '/aggregation/v1/partners/rules/abc',
      rule([{ field: 'payee', operator: 'contains', value: 'x' }], [{ field: 'payee', value: 'X' }]),
    );
    expect(unknown.statusCode).toBe(404);
    await removeAll();
  });

  it('refuses rules that do not fit with a catalogued 400, and refuses patterns that could run for long', async () => {
    const refused = async (body: unknown, code: string, text?: RegExp) => {
      const res = await call('POST', '/aggregation/v1/partners/rules', body);
      expect([res.statusCode, res.json().code], res.body).toEqual([400, code]);
      if (text) expect(res.json().message).toMatch(text);
    };
    const category = [{ field: 'category', value: 'Groceries' }];
    await refused(rule([{ field: 'description', operator: 'greaterThan', value: '3' }], category), '14150', /description takes contains, matches, equals/);
    await refused(rule([{ field: 'amount', operator: 'equals', value: 'ten' }], category), '14150', /amount such as -25\.50/);
    await refused(rule([{ field: 'account', operator: 'equals', value: 'checking' }], category), '14150', /account id/);
    await refused(rule([{ field: 'payee', operator: 'contains', value: 'x' }], [{ field: 'category', value: 'Snacks' }]), '14150', /no known category/);
    await refused(
      rule([{ field: 'payee', operator: 'contains', value: 'x' }], [...category, { field: 'category', value: 'Gift' }]),
      '14150',
      /sets category again/,
    );
    await refused(rule([{ field: 'payee', operator: 'contains', value: 'x' }], [{ field: 'payee', value: '  ' }]), '14150', /needs a payee/);
    await refused(rule([{ field: 'description', operator: 'matches', value: '(a+)+$' }], category), '14151', /exponential/);
    await refused(rule([{ field: 'description', operator: 'matches', value: '(a|ab)*c' }], category), '14151', /exponential/);
    await refused(rule([{ field: 'description', operator: 'matches', value: '.*a.*b' }], category), '14151', /polynomial/);
    await refused(rule([{ field: 'description', operator: 'matches', value: '(x)\\1' }], category), '14151', /back-references/);
    await refused(rule([{ field: 'description', operator: 'matches', value: '(?=a)a' }], category), '14151', /look-aheads/);
    await refused(rule([{ field: 'description', operator: 'matches', value: '[a-' }], category), '14151', /not a valid regular expression/);
    await refused(rule([{ field: 'description', operator: 'matches', value: 'a'.repeat(RULE_LIMITS.patternLength + 1) }], category), '14151', /longer than/);
    const empty = await call('POST', '/aggregation/v1/partners/rules', { conditions: [], actions: category });
    expect(empty.statusCode).toBe(400);
    expect(await list()).toEqual([]);
  });

  it('applies the rules in order to a statement upload, later rules winning, and stores the source values for later', async () => {
    await removeAll();
    const customerId = await customer();
    await create(
      rule(
        [{ field: 'description', operator: 'contains', value: 'bakery' }],
        [
          { field: 'category', value: 'Groceries' },
          { field: 'payee', value: 'Bakery' },
        ],
        { position: 2 },
      ),
    );
    // Same position, created later: it wins on category; its memo applies too.
    await create(
      rule(
        [{ field: 'description', operator: 'matches', value: '^corner\\s+bakery \\d{4}$' }],
        [
          { field: 'category', value: 'Coffee Shops' },
          { field: 'memo', value: 'morning' },
        ],
        { position: 2 },
      ),
    );
    // A lower position applies first, so the rules above win over it.
    await create(rule([{ field: 'amount', operator: 'lessThan', value: '0' }], [{ field: 'category', value: 'Hobbies' }], { position: 1 }));
    await create(
      rule(
        [
          { field: 'amount', operator: 'greaterThan', value: '1000' },
          { field: 'description', operator: 'contains', value: 'payroll' },
        ],
        [{ field: 'category', value: 'Bonus' }],
      ),
    );
    await uploadOk(customerId, BAKERY, csv);
    const stored = await byDescription(customerId);
    const bakery = stored.get('CORNER BAKERY 1234')!;
    expect([categoryOf(bakery), payeeOf(bakery), bakery.memo]).toEqual(['Coffee Shops', 'Bakery', 'morning']);
    expect(categoryOf(stored.get('CITY PARKING')!)).toBe('Hobbies');
    expect(categoryOf(stored.get('NORTHWIND PAYROLL')!)).toBe('Bonus');

    // The same file again: the ruled values compare equal to what is stored, so nothing changes.
    const before = (await modifiedEvents(customerId)).length;
    await uploadOk(customerId, BAKERY, csv);
    expect((await modifiedEvents(customerId)).length).toBe(before);
    expect(await apply({ customerId })).toEqual({ examined: 3, modified: 0 });

    // Removing the rules and applying again gives every transaction back its source's values, with modified events.
    await removeAll();
    const restored = await apply({ customerId });
    expect(restored).toEqual({ examined: 3, modified: 3 });
    const back = await byDescription(customerId);
    expect(categoryOf(back.get('CORNER BAKERY 1234')!)).not.toBe('Coffee Shops');
    expect(back.get('CORNER BAKERY 1234')!.memo).toBeUndefined();
    expect(categoryOf(back.get('NORTHWIND PAYROLL')!)).not.toBe('Bonus');
    const events = await modifiedEvents(customerId);
    expect(events.length).toBe(before + 3);
    expect(
      events
        .slice(-3)
        .map((e) => e.id)
        .sort(),
    ).toEqual([...back.values()].map((t) => t.id).sort());
    expect(await apply({ customerId })).toEqual({ examined: 3, modified: 0 });
    expect((await modifiedEvents(customerId)).length).toBe(before + 3);
  });

  it('applies a new rule to stored transactions on demand, after a preview that changes nothing', async () => {
    await removeAll();
    const customerId = await customer();
    await uploadOk(customerId, BAKERY, csv);
    const candidate = rule(
      [{ field: 'description', operator: 'contains', value: 'parking' }],
      [
        { field: 'category', value: 'Hobbies' },
        { field: 'payee', value: 'Garage Co' },
      ],
    );
    const preview = await call('POST', '/aggregation/v1/partners/rules/preview', { rule: candidate, customerId });
    expect(preview.statusCode, preview.body).toBe(200);
    const parking = (await byDescription(customerId)).get('CITY PARKING')!;
    expect(preview.json()).toMatchObject({
      examined: 3,
      matched: 1,
      changed: 1,
      transactions: [
        {
          id: parking.id,
          description: 'CITY PARKING',
          amount: -12,
          before: { category: categoryOf(parking) },
          after: { category: 'Hobbies', payee: 'Garage Co' },
        },
      ],
    });
    const xml = await call('POST', '/aggregation/v1/partners/rules/preview', { rule: candidate, customerId }, files.partner, 'application/xml');
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('<rulePreview>');
    expect(categoryOf((await byDescription(customerId)).get('CITY PARKING')!)).not.toBe('Hobbies');

    const saved = await create(candidate);
    // An edit's preview: the saved rule is replaced by the candidate, so nothing else would match.
    const edit = await call('POST', '/aggregation/v1/partners/rules/preview', {
      rule: { ...candidate, conditions: [{ field: 'description', operator: 'contains', value: 'nothing' }] },
      replacesRuleId: String(saved.id),
      customerId,
    });
    expect(edit.json()).toMatchObject({ examined: 3, matched: 0, changed: 0, transactions: [] });

    const before = (await modifiedEvents(customerId)).length;
    expect(await apply({ customerId })).toEqual({ examined: 3, modified: 1 });
    const after = (await byDescription(customerId)).get('CITY PARKING')!;
    expect([categoryOf(after), payeeOf(after)]).toEqual(['Hobbies', 'Garage Co']);
    const events = await modifiedEvents(customerId);
    expect(events.length).toBe(before + 1);
    expect(events.at(-1)).toMatchObject({ id: parking.id, categorization: { category: 'Hobbies', normalizedPayeeName: 'Garage Co' } });
    // Without customerId: every customer of the partner (the previous test's has a parking transaction to change).
    expect((await apply()).modified).toBe(1);
    expect((await apply()).modified).toBe(0);
  });

  it('applies rules on a refresh, once: the next refresh compares the ruled values and changes nothing', async () => {
    await removeAll();
    const c = ctx();
    const customerId = await customer();
    const accounts = await linkProfile(c, files.partner, customerId, 'profile_01');
    await refresh(c, files.partner, customerId);
    const window = { fromDate: nowOf(c) - 800 * DAY, toDate: nowOf(c) + DAY };
    const txs = await allTransactions(c, files.partner, customerId, window);
    // The most recent transaction: a refresh reads its window again (older ones stay as stored until rules are applied).
    const sample = txs.filter((t) => t.accountId === Number(accounts[0]!.id)).reduce((a, b) => (b.transactionDate > a.transactionDate ? b : a));
    const target = [sample];
    await create(
      rule(
        [
          { field: 'description', operator: 'equals', value: sample.description as string },
          { field: 'amount', operator: 'equals', value: String(sample.amount) },
          { field: 'account', operator: 'equals', value: String(sample.accountId) },
          { field: 'institution', operator: 'equals', value: '101732' },
        ],
        [
          { field: 'category', value: 'Gift' },
          { field: 'memo', value: 'ruled' },
        ],
      ),
    );
    const before = (await modifiedEvents(customerId)).length;
    await refresh(c, files.partner, customerId);
    const ruled = (await allTransactions(c, files.partner, customerId, window)).filter((t) => target.some((x) => x.id === t.id));
    expect(ruled.length).toBe(target.length);
    for (const t of ruled) expect([categoryOf(t), t.memo]).toEqual(['Gift', 'ruled']);
    const afterFirst = (await modifiedEvents(customerId)).length;
    expect(afterFirst - before).toBeGreaterThanOrEqual(target.length);
    await refresh(c, files.partner, customerId);
    const afterSecond = await modifiedEvents(customerId);
    expect(afterSecond.slice(afterFirst).filter((e) => target.some((x) => x.id === e.id))).toEqual([]);
    await removeAll();
  });

  it("never applies another partner's rules, and answers 404 to another partner's rule and customer", async () => {
    await removeAll();
    const other = await partnerWithToken(ctx());
    const theirs = await create(rule([{ field: 'description', operator: 'contains', value: 'bakery' }], [{ field: 'category', value: 'Gift' }]), other);
    const customerId = await customer();
    await uploadOk(customerId, BAKERY, csv);
    expect(categoryOf((await byDescription(customerId)).get('CORNER BAKERY 1234')!)).not.toBe('Gift');
    expect(await list()).toEqual([]);
    expect((await list(other)).map((r) => r.id)).toEqual([theirs.id]);

    const body = rule([{ field: 'payee', operator: 'contains', value: 'x' }], [{ field: 'payee', value: 'X' }]);
    for (const res of [
      await call('PUT', `/aggregation/v1/partners/rules/${theirs.id}`, body),
      await call('DELETE', `/aggregation/v1/partners/rules/${theirs.id}`),
      await call('POST', '/aggregation/v1/partners/rules/preview', { rule: body, replacesRuleId: String(theirs.id) }),
      await call('POST', '/aggregation/v1/partners/rules/apply', { customerId }, other),
      await call('POST', '/aggregation/v1/partners/rules/preview', { rule: body, customerId }, other),
    ])
      expect([res.statusCode, res.json().code]).toEqual([404, '14001']);
    // The other partner applying its rules changes nothing of this partner's.
    expect(await apply({}, other)).toEqual({ examined: 0, modified: 0 });
    expect(categoryOf((await byDescription(customerId)).get('CORNER BAKERY 1234')!)).not.toBe('Gift');
    expect((await list(other)).map((r) => r.id)).toEqual([theirs.id]);
  });

  it(`keeps at most ${RULE_LIMITS.rules} rules per partner`, async () => {
    const other = await partnerWithToken(ctx());
    const body = rule([{ field: 'payee', operator: 'contains', value: 'x' }], [{ field: 'payee', value: 'X' }]);
    for (let i = 0; i < RULE_LIMITS.rules; i++) await create(body, other);
    const over = await call('POST', '/aggregation/v1/partners/rules', body, other);
    expect([over.statusCode, over.json().code]).toEqual([409, '14152']);
  });
});
