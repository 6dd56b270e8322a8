import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { customerMayUseInstitution, parseCustomerId, usernamePolicyViolation } from '../../src/modules/customers/service.js';
import { BRANDING_ASSETS, initialsOf, renderBrandingAsset } from '../../src/modules/institutions/branding.js';
import { TEST_INSTITUTIONS } from '../../src/connectors/testbank/institutions.js';

describe('username policy', () => {
  it('accepts 6 to 255 characters of letters, digits and the listed special characters', () => {
    expect(usernamePolicyViolation('abcdef')).toBeUndefined();
    expect(usernamePolicyViolation('a'.repeat(255))).toBeUndefined();
    expect(usernamePolicyViolation('AZaz09!@.#$%&*_-+')).toBeUndefined();
  });

  it('refuses 5 and 256 characters, saying how many there are', () => {
    expect(usernamePolicyViolation('abcde')).toMatch(/6 to 255 characters.*has 5/);
    expect(usernamePolicyViolation('a'.repeat(256))).toMatch(/has 256/);
  });

  it.each(['user name', 'user/name', 'user:name', 'user"name', 'user(name)', 'user,name', 'user?name', 'user=name', 'user\tname', 'user~name'])(
    'refuses %j',
    (username) => {
      expect(usernamePolicyViolation(username)).toMatch(/may contain only ASCII letters/);
    },
  );

  it.each(['josé_garcia', 'müller01', 'иван_петров', 'user😀name'])('refuses the non-ASCII %s and says so', (username) => {
    expect(usernamePolicyViolation(username)).toMatch(/non-ASCII characters such as "[^"]+" are not allowed/);
  });
});

describe('customer ids and institutions', () => {
  it('reads only numeric ids', () => {
    expect(parseCustomerId('1005000000')).toBe(1005000000);
    expect(parseCustomerId(1005000001)).toBe(1005000001);
    for (const bad of ['abc', '', '-1', '1.5', '1e9', '99999999999999999999', '12 34']) expect(parseCustomerId(bad), bad).toBeUndefined();
  });

  it('lets testing customers use test institutions only, active customers any', () => {
    for (const t of TEST_INSTITUTIONS) {
      expect(customerMayUseInstitution({ type: 'testing' }, t.id)).toBe(true);
      expect(customerMayUseInstitution({ type: 'active' }, t.id)).toBe(true);
    }
    expect(customerMayUseInstitution({ type: 'testing' }, 1010)).toBe(false);
    expect(customerMayUseInstitution({ type: 'active' }, 1010)).toBe(true);
  });
});

describe('branding images', () => {
  it('takes the initials of significant words', () => {
    expect(initialsOf('Bank of America')).toBe('BA');
    expect(initialsOf('U.S. Bank')).toBe('USB');
    expect(initialsOf('FinBank')).toBe('F');
    expect(initialsOf('Caisse Desjardins de Lévis')).toBe('CDL');
    expect(initialsOf('&')).toBe('?');
  });

  it('renders well-formed SVG with the name escaped and the colour checked', () => {
    for (const asset of BRANDING_ASSETS) {
      const svg = renderBrandingAsset({ name: 'Farmers & Merchants <Bank> "of" Springfield', primary_color: '#00843d' }, asset);
      expect(XMLValidator.validate(svg), asset).toBe(true);
      expect(svg).toContain('Farmers &amp; Merchants &lt;Bank&gt;');
      expect(svg).toContain('#00843D');
    }
    const broken = renderBrandingAsset({ name: 'X', primary_color: 'red" onload="alert(1)' }, 'icon');
    expect(broken).not.toContain('onload');
  });

  it('is the same every time', () => {
    const a = renderBrandingAsset({ name: 'Chase', primary_color: '#117ACA' }, 'logo');
    expect(renderBrandingAsset({ name: 'Chase', primary_color: '#117ACA' }, 'logo')).toBe(a);
  });
});
