import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { redactedLogger } from '../../src/platform/logger.js';
import { jsonLine, multiLine, oneLine } from '../../src/platform/terminal-text.js';

describe('text from outside printed to a terminal', () => {
  it('shows C0 controls, ESC, DEL, C1 controls and bidi overrides as visible escapes on one line', () => {
    expect(oneLine('a\x1b[2Jb\x07c\x7fd\u009b31me\u202ef\nnext\rover\tt\u0000')).toBe('a\\x1b[2Jb\\x07c\\x7fd\\x9b31me\\u202ef\\nnext\\rover\\tt\\x00');
  });

  it('keeps plain text, accents and emoji as they are', () => {
    const text = 'Café — 東京 🙂 https://x.example/a?b=c';
    expect(oneLine(text)).toBe(text);
    expect(multiLine(text)).toBe(text);
  });

  it('keeps line feeds and tabs in multi-line text, reads CRLF as LF and shows a lone CR', () => {
    expect(multiLine('one\r\ntwo\tcols\rthree\x1b]0;t\x07')).toBe('one\ntwo\tcols\\rthree\\x1b]0;t\\x07');
  });

  it('writes JSON that parses to the same value with DEL, C1 and bidi characters escaped too', () => {
    const value = { s: '\x1b[2J\u009b31m\x7f\u2028\u202e\u2066ok' };
    const line = jsonLine(value);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u202e\u2066]/);
    expect(line).toContain('\\u009b');
    expect(JSON.parse(line)).toEqual(value);
  });

  it("leaves nothing a terminal acts on in the server's log lines, which still parse to the logged text", () => {
    let out = '';
    const logger = redactedLogger(
      'info',
      new Writable({
        write(chunk, _enc, done) {
          out += String(chunk);
          done();
        },
      }),
    );
    const text = 'GET /x\u009b2J\x1b[31m\x7f\u202e';
    logger.info({ url: text }, text);
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(JSON.parse(out)).toMatchObject({ url: text, msg: text });
  });
});
