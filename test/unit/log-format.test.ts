import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/main/config.js';
import { chooseLogFormat, redactedLogger, type LogFormat } from '../../src/platform/logger.js';

/** A logger in the given format writing into a string. */
function capture(format: LogFormat) {
  const sink = { text: '' };
  const stream = new Writable({
    write(chunk, _encoding, done) {
      sink.text += String(chunk);
      done();
    },
  });
  return { sink, logger: redactedLogger('info', stream, format) };
}

describe('the log format', () => {
  it('is readable lines on a terminal and JSON elsewhere, unless LEDGERLINK_LOG_FORMAT says which', () => {
    expect(chooseLogFormat('auto', true)).toBe('pretty');
    expect(chooseLogFormat('auto', false)).toBe('json');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });

  it('is read from LEDGERLINK_LOG_FORMAT, auto when unset, and a bad value is refused with the variable named', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ LEDGERLINK_LOG_FORMAT: 'JSON' }).logFormat).toBe('json');
    expect(loadConfig({ LEDGERLINK_LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LEDGERLINK_LOG_FORMAT: 'xml' })).toThrow(ConfigError);
    expect(() => loadConfig({ LEDGERLINK_LOG_FORMAT: 'xml' })).toThrow(/LEDGERLINK_LOG_FORMAT/);
  });

  it('writes one JSON object a line in JSON', () => {
    const { sink, logger } = capture('json');
    logger.info({ reqId: 'req-1', req: { method: 'GET', url: '/health' } }, 'incoming request');
    expect(JSON.parse(sink.text)).toMatchObject({ level: 30, msg: 'incoming request', req: { method: 'GET', url: '/health' } });
  });

  it('writes one readable line a record in pretty, with the request and its outcome in words', () => {
    const { sink, logger } = capture('pretty');
    logger.info({ reqId: 'req-1', req: { method: 'GET', url: '/health' }, res: { statusCode: 200 }, responseTime: 3.125 }, 'request completed');
    logger.info({ reqId: 'req-2', req: { method: 'GET', url: '/health' } }, 'request refused');
    // Colours (where the environment asks for them) are not what is tested here.
    const lines = sink.text
      .replace(/\x1b\[[0-9;]*m/g, '')
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*: request completed GET \/health 200 in 3\.1 ms \{"reqId":"req-1"\}$/);
    expect(lines[1]).toMatch(/INFO.*: request refused GET \/health \{"reqId":"req-2"\}$/);
  });

  it('keeps secrets out and shows control characters as escapes in pretty lines too', () => {
    const { sink, logger } = capture('pretty');
    logger.warn({ partner: { token: 'tok-secret', appKey: 'key-secret' }, url: '/connect?signature=abc123&x=1' }, 'odd \x1b[2J\u009b31m\u202e text');
    expect(sink.text).not.toMatch(/tok-secret|key-secret|abc123/);
    expect(sink.text).toContain('[redacted]');
    expect(sink.text).not.toMatch(/[\u0000-\u0009\u000b-\u001a\u001c-\u001f\u007f-\u009f\u202e]/);
    // The only ESC characters left are the colours pino-pretty adds itself, never the logged one.
    expect(sink.text).toContain('odd \\x1b[2J\\x9b31m\\u202e text');
  });
});
