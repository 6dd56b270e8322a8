import { describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE_DESCRIPTIONS, generateCatalog, PRODUCT_FLAGS } from '../../src/modules/institutions/catalog/generate.js';
import { CANADIAN_PROVINCES, US_STATES } from '../../src/modules/institutions/catalog/geography.js';
import { REAL_INSTITUTIONS } from '../../src/modules/institutions/catalog/real-institutions.js';
import type { InstitutionTable } from '../../src/modules/institutions/table.js';
import { TEST_INSTITUTIONS } from '../../src/connectors/testbank/institutions.js';

const rows = generateCatalog();
const byId = new Map(rows.map((r) => [r.id, r]));
const byName = new Map(rows.map((r) => [r.name, r]));

describe('institution catalogue generator', () => {
  it('produces the same catalogue every time', () => {
    expect(JSON.stringify(generateCatalog())).toBe(JSON.stringify(rows));
  });

  it('has at least 10,000 institutions with unique ids and names', () => {
    expect(rows.length).toBeGreaterThanOrEqual(10_000);
    expect(byId.size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.name.toLowerCase())).size).toBe(rows.length);
  });

  it('contains every test institution at its fixed id, as class testfi', () => {
    for (const t of TEST_INSTITUTIONS) {
      const row = byId.get(t.id)!;
      expect(row.name).toBe(t.name);
      expect(row.url_home_app).toBe(t.urlHomeApp);
      expect(row.class).toBe('testfi');
      expect(row.account_type_description).toBe('TestFI');
    }
    expect(
      rows
        .filter((r) => r.class === 'testfi')
        .map((r) => r.id)
        .sort(),
    ).toEqual(TEST_INSTITUTIONS.map((t) => t.id).sort());
    expect(byId.get(102168)!.oauth_enabled).toBe(1);
    expect(byId.get(101732)!.oauth_enabled).toBe(0);
    const down = byId.get(102176)!;
    expect(down.ps_overall).not.toBe('online');
    expect(down.ps_trans_agg).not.toBe('online');
    expect(byId.get(102175)!.special_text).toMatch(/multi-factor/);
  });

  it('contains the well-known institutions with their real web sites', () => {
    expect(byName.get('Chase')!.url_home_app).toBe('https://www.chase.com');
    expect(byName.get('Wells Fargo')!.url_home_app).toBe('https://www.wellsfargo.com');
    expect(byName.get('RBC Royal Bank')!.currency).toBe('CAD');
    expect(byName.get('RBC Royal Bank')!.country).toBe('CAN');
    for (const inst of REAL_INSTITUTIONS) expect(byName.get(inst.name)?.url_home_app).toBe(inst.home);
  });

  it('points merged institutions at their successor', () => {
    const suntrust = byName.get('SunTrust Bank')!;
    expect(suntrust.new_institution_id).toBe(byName.get('Truist')!.id);
    for (const row of rows) if (row.new_institution_id !== null) expect(byId.has(row.new_institution_id)).toBe(true);
  });

  it('fills every field of every institution', () => {
    const required = [
      'name',
      'display_name',
      'account_type_description',
      'class',
      'status',
      'url_home_app',
      'url_logon_app',
      'url_product_app',
      'url_forgot_password',
      'url_online_registration',
      'phone',
      'email',
      'currency',
      'special_text',
      'city',
      'state',
      'postal_code',
      'country',
      'primary_color',
      'ps_overall',
    ] as const;
    const problems: string[] = [];
    const check = (ok: boolean, row: InstitutionTable, what: string) => {
      if (!ok) problems.push(`${row.id} ${row.name}: ${what}`);
    };
    for (const row of rows) {
      for (const field of required) check(row[field] !== '', row, `${field} is empty`);
      check(/^https:\/\/[a-z0-9.-]+/.test(row.url_home_app), row, 'home page');
      check(/^https:\/\//.test(row.url_logon_app), row, 'login page');
      check(/^#[0-9A-F]{6}$/i.test(row.primary_color), row, 'colour');
      check(/^1-\d{3}-\d{3}-\d{4}$/.test(row.phone), row, 'phone');
      check(/^[a-z]+@[a-z0-9.-]+$/.test(row.email), row, 'e-mail');
      check(Object.values(ACCOUNT_TYPE_DESCRIPTIONS).includes(row.account_type_description), row, 'account type description');
      check(/^(America|Pacific)\//.test(row.time_zone ?? ''), row, 'time zone');
      check(
        PRODUCT_FLAGS.every((flag) => row[flag] === 0 || row[flag] === 1),
        row,
        'flags',
      );
      check(!row.oauth_enabled || Boolean(row.special_instructions), row, 'OAuth instructions');
      check(row.currency === (row.country === 'CAN' ? 'CAD' : 'USD'), row, 'currency');
    }
    expect(problems).toEqual([]);
  });

  it('spreads generated institutions over every US state and Canadian province', () => {
    const regions = new Set(rows.map((r) => r.state));
    for (const region of [...US_STATES, ...CANADIAN_PROVINCES]) expect(regions, region.name).toContain(region.code);
    expect(rows.filter((r) => r.name.endsWith('Credit Union')).length).toBeGreaterThan(2000);
    expect(rows.filter((r) => r.name.startsWith('Caisse')).length).toBeGreaterThan(100);
  });

  it('gives US ZIP codes and Canadian postal codes their real shapes', () => {
    const wrong = rows.filter((r) => !(r.country === 'USA' ? /^\d{5}$/ : /^[A-Z]\d[A-Z] \d[A-Z]\d$/).test(r.postal_code));
    expect(wrong).toEqual([]);
  });

  it('uses reserved names for generated web sites and fictional phone numbers', () => {
    const generated = rows.filter((r) => r.search_rank === 0 && r.class !== 'testfi');
    expect(generated.length).toBeGreaterThanOrEqual(10_000);
    expect(generated.filter((r) => !new URL(r.url_home_app).hostname.endsWith('.example') || !/-555-01\d\d$/.test(r.phone))).toEqual([]);
  });
});
