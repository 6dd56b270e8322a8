import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, REDACT_PATHS } from '../../src/platform/logger.js';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const parent = pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream);
  let children = 0;
  const original = parent.child;
  // pino's children inherit this method through their prototype, so it must call on whoever it is called on.
  parent.child = function (this: typeof parent, ...args: Parameters<typeof parent.child>) {
    children++;
    return original.apply(this, args);
  } as typeof parent.child;
  return { parent, lines, children: () => children };
}

describe('lazy request logger', () => {
  it('makes no child logger while nothing is logged at an enabled level', () => {
    const { parent, lines, children } = capture('warn');
    const log = lazyChildLogger(parent, { reqId: 'req-1' }, {});
    log.info('incoming request');
    log.debug({ a: 1 }, 'details');
    expect(children()).toBe(0);
    expect(lines).toHaveLength(0);
    expect(log.level).toBe('warn');
  });

  it('logs through a real child with the bindings and the redaction once a level is enabled', () => {
    const { parent, lines, children } = capture('info');
    const log = lazyChildLogger(parent, { reqId: 'req-2' }, {});
    log.info({ body: { partnerSecret: 'hunter2-secret-1' } }, 'first');
    log.warn('second');
    expect(children()).toBe(1);
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([
      ['first', 'req-2'],
      ['second', 'req-2'],
    ]);
    expect(JSON.stringify(lines[0])).not.toContain('hunter2');
    expect((lines[0]!.body as Record<string, unknown>).partnerSecret).toBe('[redacted]');
  });

  it('hands out grandchildren that carry both bindings', () => {
    const { parent, lines } = capture('info');
    lazyChildLogger(parent, { reqId: 'req-3' }, {}).child({ part: 'x' }).error('boom');
    expect(lines[0]).toMatchObject({ reqId: 'req-3', part: 'x', msg: 'boom' });
  });

  it('takes a level of its own without changing the parent', () => {
    const { parent, lines, children } = capture('warn');
    const log = lazyChildLogger(parent, { reqId: 'req-4' }, {});
    log.level = 'debug';
    log.debug('now visible');
    expect(children()).toBe(1);
    expect(log.level).toBe('debug');
    expect(parent.level).toBe('warn');
    expect(log.isLevelEnabled('debug')).toBe(true);
    expect(lines.map((l) => l.msg)).toEqual(['now visible']);
  });
});
