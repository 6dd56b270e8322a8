import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/main/config.js';
import { RequestLogWriter } from '../../src/modules/requestlog/service.js';
import { ManualClock } from '../../src/platform/clock.js';
import { openRuntime, type Runtime } from '../../src/main/runtime.js';

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

/** A logger that keeps its warnings. */
function recordingLogger(): { logger: Logger; warnings: Array<{ obj: { loose: Array<{ path: string; mode: string }> }; msg: string }> } {
  const warnings: Array<{ obj: any; msg: string }> = [];
  return { logger: { warn: (obj: object, msg: string) => warnings.push({ obj, msg }) } as unknown as Logger, warnings };
}

describe.skipIf(process.platform === 'win32')('permissions of the data directory', () => {
  let dir: string;
  let runtime: Runtime | undefined;
  beforeEach(() => {
    dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-perm-')), 'data');
  });
  afterEach(async () => {
    await runtime?.database.close();
    runtime = undefined;
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it('creates the data directory 0700 and the database, its WAL and SHM, the request log and the master key 0600', async () => {
    runtime = await openRuntime(loadConfig({ LEDGERLINK_DATA_DIR: dir }));
    // Something in the request log, so its file has a WAL too.
    const writer = new RequestLogWriter(runtime.database, new ManualClock());
    writer.record({
      partner_id: null,
      method: 'GET',
      path: '/health',
      route: '/health',
      status: 200,
      latency_ms: 1,
      error_code: null,
      request_id: 'r1',
      ip: '127.0.0.1',
      created_at_ms: 1,
    });
    await writer.close();
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'ledgerlink.request-log.sqlite',
        'ledgerlink.request-log.sqlite-wal',
        'ledgerlink.sqlite',
        'ledgerlink.sqlite-shm',
        'ledgerlink.sqlite-wal',
        'master.key',
      ]),
    );
    expect(modeOf(dir).toString(8)).toBe('700');
    for (const file of files) expect([file, modeOf(path.join(dir, file)).toString(8)]).toEqual([file, '600']);
  });

  it('warns at start-up, naming what other users may read, when the directory or a file in it is looser', async () => {
    runtime = await openRuntime(loadConfig({ LEDGERLINK_DATA_DIR: dir }));
    await runtime.database.close();
    const tight = recordingLogger();
    runtime = await openRuntime(loadConfig({ LEDGERLINK_DATA_DIR: dir }), { logger: tight.logger });
    expect(tight.warnings).toEqual([]);
    await runtime.database.close();

    // An installation made before the directory and files were private.
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(path.join(dir, 'ledgerlink.sqlite'), 0o644);
    const loose = recordingLogger();
    runtime = await openRuntime(loadConfig({ LEDGERLINK_DATA_DIR: dir }), { logger: loose.logger });
    expect(loose.warnings).toHaveLength(1);
    const named = loose.warnings[0]!.obj.loose;
    expect(named[0]).toEqual({ path: dir, mode: '0755' });
    expect(named).toContainEqual({ path: path.join(dir, 'ledgerlink.sqlite'), mode: '0644' });
    // SQLite made the WAL and SHM files anew with their database file's mode; the others stayed private.
    expect(
      named
        .map((l) => path.basename(l.path))
        .slice(1)
        .sort(),
    ).toEqual(['ledgerlink.sqlite', 'ledgerlink.sqlite-shm', 'ledgerlink.sqlite-wal']);
    expect(loose.warnings[0]!.msg).toMatch(/readable by other users.*chmod 700/);
  });
});
