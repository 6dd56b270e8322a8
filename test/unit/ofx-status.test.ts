import { describe, expect, it } from 'vitest';
import {
  OFX_STATUS_TABLE,
  OFX_TRANSPORT_TABLE,
  ofxStatusFailure,
  ofxStatusRow,
  ofxStatusTableMarkdown,
  ofxTransportFailure,
} from '../../src/connectors/ofx/status.js';

const error = (code: number, message?: string) => (message === undefined ? { code, severity: 'ERROR' } : { code, severity: 'ERROR', message });

describe('the OFX status table', () => {
  it.each([
    [15500, 103],
    [15000, 109],
    [15502, 109],
    [15503, 109],
    [15507, 109],
    [15510, 108],
    [15508, 108],
    [15512, 108],
    [15513, 108],
    [2005, 108],
    [15511, 185],
    [3000, 185],
    [3001, 185],
    [2000, 102],
    [2025, 102],
    [2003, 102],
    [2021, 102],
    [15501, 102],
    [15505, 102],
    [15506, 102],
    [15509, 102],
    [13504, 102],
    [10500, 102],
    [10519, 102],
  ])('maps %i to aggregation status %i', (code, aggregation) => {
    expect(ofxStatusFailure(error(code))?.code).toBe(aggregation);
  });

  it.each([0, 1, 2028, 12250, 12251, 12252, 12253, 12254, 12500])('takes %i as success, whatever the severity says', (code) => {
    expect(ofxStatusFailure({ code, severity: 'WARN' })).toBeUndefined();
    expect(ofxStatusFailure({ code, severity: 'ERROR' })).toBeUndefined();
  });

  it('takes codes it does not name by their severity: INFO and WARN succeed, ERROR is 102', () => {
    expect(ofxStatusFailure({ code: 17777, severity: 'INFO' })).toBeUndefined();
    expect(ofxStatusFailure({ code: 17777, severity: 'WARN' })).toBeUndefined();
    expect(ofxStatusFailure(error(17777))).toEqual({ ok: false, code: 102, message: 'The institution refused the request. (OFX status 17777)' });
  });

  it('tells the user to approve this device at the institution for 15510, with what the institution said', () => {
    const failure = ofxStatusFailure(error(15510, 'Verify your identity within 7 days'));
    expect(failure?.code).toBe(108);
    expect(failure?.message).toMatch(/approve the new device or application/);
    expect(failure?.message).toContain('The institution says: "Verify your identity within 7 days"');
    expect(failure?.message).toMatch(/\(OFX status 15510\)$/);
  });

  it("shows the server's words without control characters and at bounded length", () => {
    const failure = ofxStatusFailure(error(2000, `line one\r\n\u0007line two\u2028${'x'.repeat(500)}`));
    expect(failure?.message).toContain('"line one line two xxxx');
    expect(failure?.message).not.toMatch(/[\u0000-\u001f\u2028]/);
    expect(failure!.message.length).toBeLessThan(TABLE_MESSAGE_LIMIT);
  });

  it('names each code once, with its OFX meaning, and a message for every failure', () => {
    const codes = OFX_STATUS_TABLE.flatMap((r) => (r.to === undefined ? [r.code] : [r.code, r.to]));
    expect(new Set(codes).size).toBe(codes.length);
    for (const row of OFX_STATUS_TABLE) {
      expect(row.ofxMeaning.length, String(row.code)).toBeGreaterThan(3);
      expect(row.aggregation === 0 ? row.message === '' : row.message.length > 10, String(row.code)).toBe(true);
      expect(ofxStatusRow(row.code)).toBe(row);
    }
    for (const required of [0, 2000, 2003, 2025, 3000, 15500, 15501, 15502, 15503, 15505, 15506, 15507, 15508, 15509, 15510, 15511, 15512, 15513]) {
      expect(ofxStatusRow(required), String(required)).toBeDefined();
    }
  });

  it('makes every transport failure a 102 with its detail', () => {
    for (const row of OFX_TRANSPORT_TABLE) expect(ofxTransportFailure(row.cause).code).toBe(102);
    expect(ofxTransportFailure('http-status', 'HTTP 500').message).toMatch(/\(HTTP 500\)$/);
    expect(ofxTransportFailure('unparseable', 'no OFX\u0000 here').message).toMatch(/\(no OFX here\)$/);
  });

  it('writes the tables as Markdown, a row for each entry', () => {
    const markdown = ofxStatusTableMarkdown();
    const rows = markdown.trim().split('\n');
    expect(rows[0]).toBe('| OFX status | OFX meaning | aggregation status | message to the user |');
    expect(rows).toHaveLength(2 + OFX_STATUS_TABLE.length + 2 + OFX_TRANSPORT_TABLE.length);
    expect(markdown).toContain('| 15510 | CLIENTUID error: the user must authorize this client at the institution | 108 |');
    expect(markdown).toContain('| 10000–10519 |');
    expect(markdown).toContain('&lt;FI&gt; missing or invalid in &lt;SONRQ&gt;');
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length, row).toBe(6);
  });
});

/** Table message + the server's words (at most 200 characters) + the code. */
const TABLE_MESSAGE_LIMIT = 400;
