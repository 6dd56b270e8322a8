/**
 * OFX requests as Quicken and GnuCash send them: a header block, then SIGNONMSGSRQV1 and the message sets asked
 * for, in the order the specification gives them.
 *
 * 1.x requests are SGML with leaf elements left unclosed and one element per line: some 1.x servers refuse closed
 * leaves, and some need line breaks between elements. 2.x requests are XML, every element closed, also one per line.
 */
import { formatOfxDate } from './dates.js';
import { encodeEntities } from './markup.js';
import type { OfxAccountId } from './parse.js';

/** The versions this client speaks: 1.0.2, 1.0.3, 1.5.1, 1.6 (SGML) and 2.0.0, 2.0.3, 2.1.1, 2.2 (XML). */
export const OFX_VERSIONS = [102, 103, 151, 160, 200, 203, 211, 220] as const;
export type OfxVersion = (typeof OFX_VERSIONS)[number];

export function isOfxVersion(value: unknown): value is OfxVersion {
  return typeof value === 'number' && (OFX_VERSIONS as readonly number[]).includes(value);
}

/** 2.x is XML, 1.x SGML. */
export function isXmlVersion(version: OfxVersion): boolean {
  return version >= 200;
}

/**
 * Whether SONRQ has CLIENTUID in this version: it came with 1.0.3 and 2.0.3 (and so is in 1.6, which follows
 * 2.1.1), not in 1.0.2, 1.5.1 or 2.0.0, whose servers may refuse an element they do not know.
 */
export function versionHasClientUid(version: OfxVersion): boolean {
  return version === 103 || version === 160 || version >= 203;
}

export interface OfxSignonRequest {
  version: OfxVersion;
  /** DTCLIENT, epoch seconds (the connector context's `now`). */
  now: number;
  userId: string;
  password: string;
  /** FI/ORG and FI/FID; the FI aggregate is sent when ORG is known (Quicken always sends it and many servers need it). */
  org?: string;
  fid?: string;
  appId: string;
  appVer: string;
  /** Sent when the version has CLIENTUID, or always with `sendClientUid: true` (servers that want it in 1.0.2). */
  clientUid?: string;
  sendClientUid?: boolean;
  /** LANGUAGE; ENG unless given. */
  language?: string;
}

export type OfxRequestItem =
  /** ACCTINFORQ with DTACCTUP 19700101: every account of the user. */
  | { kind: 'accountInfo'; trnuid: string }
  /**
   * STMTRQ, CCSTMTRQ or INVSTMTRQ, by the account's kind. `start`/`end` bound DTPOSTED (epoch seconds, sent as
   * dates); `includeTransactions: false` asks for balances (and positions) only.
   */
  | { kind: 'statement'; trnuid: string; account: OfxAccountId; start?: number; end?: number; includeTransactions?: boolean };

type Node = readonly [name: string, content: string | readonly (Node | undefined)[]];

function render(node: Node, xml: boolean, out: string[]): void {
  const [name, content] = node;
  if (typeof content === 'string') {
    out.push(xml ? `<${name}>${encodeEntities(content)}</${name}>` : `<${name}>${encodeEntities(content)}`);
    return;
  }
  out.push(`<${name}>`);
  for (const child of content) if (child) render(child, xml, out);
  out.push(`</${name}>`);
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 126) return false;
  return true;
}

function header(version: OfxVersion, ascii: boolean): string {
  if (isXmlVersion(version)) {
    return (
      '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\r\n' +
      `<?OFX OFXHEADER="200" VERSION="${version}" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\r\n`
    );
  }
  // Bodies go out as UTF-8; a plain ASCII body is also valid US-ASCII/1252, the pairing older servers expect.
  const charset = ascii ? 'ENCODING:USASCII\r\nCHARSET:1252' : 'ENCODING:UTF-8\r\nCHARSET:NONE';
  return `OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:${version}\r\nSECURITY:NONE\r\n${charset}\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n`;
}

function inctran(item: Extract<OfxRequestItem, { kind: 'statement' }>): Node {
  return [
    'INCTRAN',
    [
      item.start === undefined ? undefined : ['DTSTART', formatOfxDate(item.start, 'date')],
      item.end === undefined ? undefined : ['DTEND', formatOfxDate(item.end, 'date')],
      ['INCLUDE', item.includeTransactions === false ? 'N' : 'Y'],
    ],
  ];
}

function statementRequest(item: Extract<OfxRequestItem, { kind: 'statement' }>): { set: string; node: Node } {
  const a = item.account;
  if (a.kind === 'bank') {
    const from: Node = [
      'BANKACCTFROM',
      [['BANKID', a.bankId], a.branchId === undefined ? undefined : ['BRANCHID', a.branchId], ['ACCTID', a.acctId], ['ACCTTYPE', a.acctType]],
    ];
    return {
      set: 'BANKMSGSRQV1',
      node: [
        'STMTTRNRQ',
        [
          ['TRNUID', item.trnuid],
          ['STMTRQ', [from, inctran(item)]],
        ],
      ],
    };
  }
  if (a.kind === 'creditCard') {
    const from: Node = ['CCACCTFROM', [['ACCTID', a.acctId]]];
    return {
      set: 'CREDITCARDMSGSRQV1',
      node: [
        'CCSTMTTRNRQ',
        [
          ['TRNUID', item.trnuid],
          ['CCSTMTRQ', [from, inctran(item)]],
        ],
      ],
    };
  }
  const from: Node = [
    'INVACCTFROM',
    [
      ['BROKERID', a.brokerId],
      ['ACCTID', a.acctId],
    ],
  ];
  const rq: Node = ['INVSTMTRQ', [from, inctran(item), ['INCOO', 'N'], ['INCPOS', [['INCLUDE', 'Y']]], ['INCBAL', 'Y']]];
  return { set: 'INVSTMTMSGSRQV1', node: ['INVSTMTTRNRQ', [['TRNUID', item.trnuid], rq]] };
}

const MESSAGE_SET_ORDER = ['SIGNUPMSGSRQV1', 'BANKMSGSRQV1', 'CREDITCARDMSGSRQV1', 'INVSTMTMSGSRQV1'];

/** The whole request body: header, sign-on, and one transaction per item (its TRNUID as given). */
export function buildOfxRequest(signon: OfxSignonRequest, items: readonly OfxRequestItem[]): string {
  const { version } = signon;
  const xml = isXmlVersion(version);
  const clientUid = signon.clientUid !== undefined && (signon.sendClientUid || versionHasClientUid(version)) ? signon.clientUid : undefined;
  const sonrq: Node = [
    'SONRQ',
    [
      ['DTCLIENT', formatOfxDate(signon.now, 'datetime')],
      ['USERID', signon.userId],
      ['USERPASS', signon.password],
      ['LANGUAGE', signon.language ?? 'ENG'],
      signon.org === undefined ? undefined : ['FI', [['ORG', signon.org], signon.fid === undefined ? undefined : ['FID', signon.fid]]],
      ['APPID', signon.appId],
      ['APPVER', signon.appVer],
      clientUid === undefined ? undefined : ['CLIENTUID', clientUid],
    ],
  ];
  const sets = new Map<string, Node[]>();
  for (const item of items) {
    const { set, node } =
      item.kind === 'accountInfo'
        ? {
            set: 'SIGNUPMSGSRQV1',
            node: [
              'ACCTINFOTRNRQ',
              [
                ['TRNUID', item.trnuid],
                ['ACCTINFORQ', [['DTACCTUP', '19700101']]],
              ],
            ] as Node,
          }
        : statementRequest(item);
    const list = sets.get(set) ?? [];
    list.push(node);
    sets.set(set, list);
  }
  const lines: string[] = [];
  const body: Node = ['OFX', [['SIGNONMSGSRQV1', [sonrq]], ...MESSAGE_SET_ORDER.filter((set) => sets.has(set)).map((set): Node => [set, sets.get(set) ?? []])]];
  render(body, xml, lines);
  const text = lines.join('\r\n');
  return `${header(version, isAscii(text))}${text}\r\n`;
}
