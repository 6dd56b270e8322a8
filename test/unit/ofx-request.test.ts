import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childOf, parseOfxDocument, leafValue } from '../../src/connectors/ofx/markup.js';
import { buildOfxRequest, OFX_VERSIONS, type OfxRequestItem, type OfxSignonRequest, versionHasClientUid } from '../../src/connectors/ofx/request.js';

const at = (iso: string) => Date.parse(iso) / 1000;

const signon: OfxSignonRequest = {
  version: 102,
  now: at('2025-01-15T15:04:05Z'),
  userId: 'jane&co',
  password: 'p<w>d',
  org: 'FirstPrairie',
  fid: '10898',
  appId: 'QWIN',
  appVer: '2700',
  clientUid: '3f1c9a52-7d0e-4b6a-9c1e-5a2b8d7e6f01',
};

const statements: OfxRequestItem[] = [
  {
    kind: 'statement',
    trnuid: 'T-2',
    account: { kind: 'bank', bankId: '121000248', branchId: '77', acctId: '1234567890', acctType: 'CHECKING' },
    start: at('2024-12-01T05:00:00Z'),
    end: at('2025-01-10T00:00:00Z'),
  },
  { kind: 'statement', trnuid: 'T-3', account: { kind: 'creditCard', acctId: '4111111111114321' }, start: at('2024-12-01T00:00:00Z') },
  {
    kind: 'statement',
    trnuid: 'T-4',
    account: { kind: 'investment', brokerId: 'brokerco.com', acctId: 'Z12345678' },
    start: at('2024-12-01T00:00:00Z'),
    includeTransactions: false,
  },
];

describe('buildOfxRequest', () => {
  it('writes a 1.0.2 account list request as SGML with unclosed leaves (golden)', () => {
    const body = buildOfxRequest(signon, [{ kind: 'accountInfo', trnuid: 'T-1' }]);
    expect(body).toBe(
      [
        'OFXHEADER:100',
        'DATA:OFXSGML',
        'VERSION:102',
        'SECURITY:NONE',
        'ENCODING:USASCII',
        'CHARSET:1252',
        'COMPRESSION:NONE',
        'OLDFILEUID:NONE',
        'NEWFILEUID:NONE',
        '',
        '<OFX>',
        '<SIGNONMSGSRQV1>',
        '<SONRQ>',
        '<DTCLIENT>20250115150405.000[0:GMT]',
        '<USERID>jane&amp;co',
        '<USERPASS>p&lt;w&gt;d',
        '<LANGUAGE>ENG',
        '<FI>',
        '<ORG>FirstPrairie',
        '<FID>10898',
        '</FI>',
        '<APPID>QWIN',
        '<APPVER>2700',
        '</SONRQ>',
        '</SIGNONMSGSRQV1>',
        '<SIGNUPMSGSRQV1>',
        '<ACCTINFOTRNRQ>',
        '<TRNUID>T-1',
        '<ACCTINFORQ>',
        '<DTACCTUP>19700101',
        '</ACCTINFORQ>',
        '</ACCTINFOTRNRQ>',
        '</SIGNUPMSGSRQV1>',
        '</OFX>',
        '',
      ].join('\r\n'),
    );
  });

  it('writes 2.2 statement requests as XML, message sets in the specification order (golden)', () => {
    const body = buildOfxRequest({ ...signon, version: 220, appId: 'QMOFX', appVer: '2500', userId: 'jane', password: 'secret' }, [
      statements[2]!,
      statements[1]!,
      statements[0]!,
    ]);
    expect(body).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
        '<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>',
        '<OFX>',
        '<SIGNONMSGSRQV1>',
        '<SONRQ>',
        '<DTCLIENT>20250115150405.000[0:GMT]</DTCLIENT>',
        '<USERID>jane</USERID>',
        '<USERPASS>secret</USERPASS>',
        '<LANGUAGE>ENG</LANGUAGE>',
        '<FI>',
        '<ORG>FirstPrairie</ORG>',
        '<FID>10898</FID>',
        '</FI>',
        '<APPID>QMOFX</APPID>',
        '<APPVER>2500</APPVER>',
        '<CLIENTUID>3f1c9a52-7d0e-4b6a-9c1e-5a2b8d7e6f01</CLIENTUID>',
        '</SONRQ>',
        '</SIGNONMSGSRQV1>',
        '<BANKMSGSRQV1>',
        '<STMTTRNRQ>',
        '<TRNUID>T-2</TRNUID>',
        '<STMTRQ>',
        '<BANKACCTFROM>',
        '<BANKID>121000248</BANKID>',
        '<BRANCHID>77</BRANCHID>',
        '<ACCTID>1234567890</ACCTID>',
        '<ACCTTYPE>CHECKING</ACCTTYPE>',
        '</BANKACCTFROM>',
        '<INCTRAN>',
        '<DTSTART>20241201</DTSTART>',
        '<DTEND>20250110</DTEND>',
        '<INCLUDE>Y</INCLUDE>',
        '</INCTRAN>',
        '</STMTRQ>',
        '</STMTTRNRQ>',
        '</BANKMSGSRQV1>',
        '<CREDITCARDMSGSRQV1>',
        '<CCSTMTTRNRQ>',
        '<TRNUID>T-3</TRNUID>',
        '<CCSTMTRQ>',
        '<CCACCTFROM>',
        '<ACCTID>4111111111114321</ACCTID>',
        '</CCACCTFROM>',
        '<INCTRAN>',
        '<DTSTART>20241201</DTSTART>',
        '<INCLUDE>Y</INCLUDE>',
        '</INCTRAN>',
        '</CCSTMTRQ>',
        '</CCSTMTTRNRQ>',
        '</CREDITCARDMSGSRQV1>',
        '<INVSTMTMSGSRQV1>',
        '<INVSTMTTRNRQ>',
        '<TRNUID>T-4</TRNUID>',
        '<INVSTMTRQ>',
        '<INVACCTFROM>',
        '<BROKERID>brokerco.com</BROKERID>',
        '<ACCTID>Z12345678</ACCTID>',
        '</INVACCTFROM>',
        '<INCTRAN>',
        '<DTSTART>20241201</DTSTART>',
        '<INCLUDE>N</INCLUDE>',
        '</INCTRAN>',
        '<INCOO>N</INCOO>',
        '<INCPOS>',
        '<INCLUDE>Y</INCLUDE>',
        '</INCPOS>',
        '<INCBAL>Y</INCBAL>',
        '</INVSTMTRQ>',
        '</INVSTMTTRNRQ>',
        '</INVSTMTMSGSRQV1>',
        '</OFX>',
        '',
      ].join('\r\n'),
    );
  });

  it('writes a 1.x request that the reader takes back as valid SGML, with every value intact', () => {
    const body = buildOfxRequest({ ...signon, version: 160 }, [{ kind: 'accountInfo', trnuid: 'T-1' }, ...statements]);
    const { header, root } = parseOfxDocument(body);
    expect(header).toMatchObject({ syntax: 'sgml', version: 160, fields: { OFXHEADER: '100', DATA: 'OFXSGML' } });
    const sonrq = childOf(childOf(root, 'SIGNONMSGSRQV1'), 'SONRQ');
    expect(leafValue(sonrq, 'USERID')).toBe('jane&co');
    expect(leafValue(sonrq, 'USERPASS')).toBe('p<w>d');
    expect(leafValue(sonrq, 'CLIENTUID')).toBe(signon.clientUid);
    expect(leafValue(sonrq, 'FI', 'FID')).toBe('10898');
    expect(root.children.map((c) => c.name)).toEqual(['SIGNONMSGSRQV1', 'SIGNUPMSGSRQV1', 'BANKMSGSRQV1', 'CREDITCARDMSGSRQV1', 'INVSTMTMSGSRQV1']);
    const stmtrq = childOf(childOf(childOf(root, 'BANKMSGSRQV1'), 'STMTTRNRQ'), 'STMTRQ');
    expect(leafValue(stmtrq, 'BANKACCTFROM', 'BRANCHID')).toBe('77');
    expect(leafValue(stmtrq, 'INCTRAN', 'DTEND')).toBe('20250110');
    const invrq = childOf(childOf(childOf(root, 'INVSTMTMSGSRQV1'), 'INVSTMTTRNRQ'), 'INVSTMTRQ');
    expect([leafValue(invrq, 'INCOO'), leafValue(invrq, 'INCPOS', 'INCLUDE'), leafValue(invrq, 'INCBAL'), leafValue(invrq, 'INCTRAN', 'INCLUDE')]).toEqual([
      'N',
      'Y',
      'Y',
      'N',
    ]);
  });

  it('sends CLIENTUID in the versions that have it, and in any version when told to', () => {
    const has = (version: (typeof OFX_VERSIONS)[number], sendClientUid?: boolean) =>
      buildOfxRequest({ ...signon, version, sendClientUid }, [{ kind: 'accountInfo', trnuid: 'x' }]).includes(`<CLIENTUID>${signon.clientUid}`);
    expect(OFX_VERSIONS.filter((v) => has(v))).toEqual([103, 160, 203, 211, 220]);
    expect(OFX_VERSIONS.filter((v) => versionHasClientUid(v))).toEqual([103, 160, 203, 211, 220]);
    expect(OFX_VERSIONS.every((v) => has(v, true))).toBe(true);
    expect(buildOfxRequest({ ...signon, version: 220, clientUid: undefined }, [])).not.toContain('CLIENTUID');
  });

  it('leaves out FI without an ORG, and declares UTF-8 when a value is not ASCII', () => {
    const body = buildOfxRequest({ ...signon, org: undefined, fid: undefined, password: 'pässwörd' }, []);
    expect(body).not.toContain('<FI>');
    expect(body).toContain('ENCODING:UTF-8\r\nCHARSET:NONE');
    expect(leafValue(childOf(childOf(parseOfxDocument(body).root, 'SIGNONMSGSRQV1'), 'SONRQ'), 'USERPASS')).toBe('pässwörd');
  });

  it('reads back any credentials and account ids in every version', () => {
    const value = fc
      .string({ minLength: 1, maxLength: 24, unit: fc.constantFrom('a', 'Z', '7', ' ', '&', '<', '>', ';', '#', '"', "'", 'é', '-', '.') })
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    fc.assert(
      fc.property(fc.constantFrom(...OFX_VERSIONS), value, value, value, (version, userId, password, acctId) => {
        const body = buildOfxRequest({ ...signon, version, userId, password }, [
          { kind: 'statement', trnuid: 'u', account: { kind: 'bank', bankId: '1', acctId, acctType: 'SAVINGS' } },
        ]);
        const { header, root } = parseOfxDocument(body);
        expect(header.syntax).toBe(version >= 200 ? 'xml' : 'sgml');
        expect(header.version).toBe(version);
        const sonrq = childOf(childOf(root, 'SIGNONMSGSRQV1'), 'SONRQ');
        expect([leafValue(sonrq, 'USERID'), leafValue(sonrq, 'USERPASS')]).toEqual([userId, password]);
        const from = childOf(childOf(childOf(childOf(root, 'BANKMSGSRQV1'), 'STMTTRNRQ'), 'STMTRQ'), 'BANKACCTFROM');
        expect(leafValue(from, 'ACCTID')).toBe(acctId);
      }),
    );
  });
});
