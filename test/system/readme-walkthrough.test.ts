import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDataDir } from '../helpers/cli.js';
import { createTestDatabase, onceOnly, SYSTEM_DIALECTS } from '../helpers/db.js';
import { freePort } from '../helpers/listener.js';

const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
/** The port the README gives its TxPUSH listener; the test puts a free one in its place. */
const README_LISTEN_PORT = '4040';

interface Block {
  kind: 'start' | 'step';
  code: string;
}

/** The README's ```sh walkthrough-start``` block (the service) and ```sh walkthrough``` blocks, in order. */
function walkthrough(markdown: string): Block[] {
  return [...markdown.matchAll(/^```sh (walkthrough(?:-start)?)\n([\s\S]*?)^```$/gm)].map((m) => ({
    kind: m[1] === 'walkthrough-start' ? 'start' : 'step',
    code: m[2]!,
  }));
}

/** A command in bash from the checkout, in a process group of its own; its output is collected. */
function bash(script: string, env: Record<string, string | undefined>) {
  const child = spawn('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (output.stdout += d));
  child.stderr.on('data', (d) => (output.stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // The group is gone already.
    }
    await exited;
  };
  return { output, exited, stop };
}

/** The NAME=value pairs of the banner's `export` line. */
function exportsOf(stdout: string): Record<string, string> {
  const line = /^export (.+)$/m.exec(stdout)?.[1] ?? '';
  return Object.fromEntries(line.split(' ').map((pair) => pair.split('=', 2) as [string, string]));
}

describe('the README', () => {
  const blocks = walkthrough(README);

  it.runIf(onceOnly)('opens with the two commands a newcomer runs, and its walkthrough starts the service once and names no fixed credentials', () => {
    expect(
      /^```sh\n(.*)\n(.*)\n```/m
        .exec(README)
        ?.slice(1, 3)
        .map((l) => l.split('#')[0]!.trim()),
    ).toEqual(['npm ci && npm start', 'npm test']);
    expect(blocks.filter((b) => b.kind === 'start')).toHaveLength(1);
    expect(blocks[0]!.kind).toBe('start');
    expect(blocks.filter((b) => b.kind === 'step').length).toBeGreaterThanOrEqual(6);
    // Comment lines may show example answers; the commands take ids, keys and the address from the export line.
    const steps = blocks
      .map((b) => b.code)
      .join('\n')
      .replace(/^\s*#.*$/gm, '');
    expect(steps).not.toMatch(/\b\d{13}\b|\b[0-9a-f]{32}\b|127\.0\.0\.1:8080|\$P\b/);
    expect(steps).not.toMatch(/^\s*ledgerlink /m);
  });

  describe.each(SYSTEM_DIALECTS)('walkthrough on %s', (dialect) => {
    it('runs top to bottom as written against a fresh service: token, customer, transactions, a verified listener and its pushes', async () => {
      const listenPort = String(await freePort());
      const own = (code: string) => code.replaceAll(README_LISTEN_PORT, listenPort);
      const db = dialect === 'postgres' ? await createTestDatabase('postgres') : undefined;
      // The store the service opens: the steps' CLI commands find it where the README's do (./data, or DATABASE_URL).
      const store = { LEDGERLINK_DATA_DIR: tempDataDir(), DATABASE_URL: db?.url };
      // Started the way the README says, on a free port, a fresh data directory and (for PostgreSQL) a fresh database.
      const service = bash(own(blocks[0]!.code), {
        PORT: String(await freePort()),
        ...store,
        npm_config_loglevel: 'silent',
        LEDGERLINK_LOG_LEVEL: 'warn',
      });
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-readme-'));
      try {
        await expect
          .poll(() => (/listening on http/.test(service.output.stdout) ? 'listening' : service.output.stderr.slice(-2000)), { timeout: 240_000, interval: 250 })
          .toBe('listening');
        const vars = exportsOf(service.output.stdout);
        expect(Object.keys(vars)).toEqual(['LEDGERLINK_URL', 'LEDGERLINK_APP_KEY', 'LEDGERLINK_PARTNER_ID', 'LEDGERLINK_PARTNER_SECRET']);

        // One interactive-like shell (job control on, as on a terminal) sources every step in order; each step is
        // framed by markers, so a step that fails is named.
        const steps = blocks.slice(1);
        const driver = ['set -euo pipefail', 'set -m'];
        steps.forEach((step, i) => {
          const file = path.join(work, `step-${i}.sh`);
          fs.writeFileSync(file, own(step.code));
          driver.push(`echo '@@step ${i}'`, `source '${file}'`, `echo '@@done ${i}'`);
        });
        const run = bash(driver.join('\n'), { ...vars, ...store });
        const code = await run.exited;
        const out = run.output.stdout;
        // The transcript, to read what a newcomer sees.
        fs.mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
        fs.writeFileSync(path.join(ROOT, 'test-artifacts', `readme-walkthrough-${dialect}.txt`), `${out}\n--- stderr ---\n${run.output.stderr}`);
        const done = [...out.matchAll(/^@@done (\d+)$/gm)].length;
        expect({ code, done, failedStep: done < steps.length ? steps[done]!.code : undefined, stderr: run.output.stderr.slice(-3000) }).toMatchObject({
          code: 0,
          done: steps.length,
        });

        expect(out).toMatch(/^token: \S{20,}$/m);
        expect(out).toContain(`"partnerId":"${vars.LEDGERLINK_PARTNER_ID}"`);
        expect(out).toMatch(/<access><token>\S+<\/token><\/access>/);
        expect(out).toMatch(/^customer: \d+$/m);
        expect(out).toMatch(/^account: \d+$/m);
        expect(Number(/^accounts aggregated: (\d+)$/m.exec(out)?.[1])).toBeGreaterThan(0);
        expect(Number(/^transactions of the last 30 days: (\d+)$/m.exec(out)?.[1])).toBeGreaterThan(0);
        expect(out).toMatch(/"signingKey":"whsec_/);
        expect(out).toMatch(/txpush +transaction\.created/);
        expect(out).toContain(`Connect link: ${vars.LEDGERLINK_URL}/connect?`);
        // Your own bank data: refused as Test Drive, then a production partner's active customer and a statement file.
        expect(out).toContain('"code":"14060"');
        expect(out).toMatch(/"plan":"production"/);
        expect(out).toMatch(/^active customer: \d+$/m);
        expect(out).toMatch(/^statement lines stored: 2$/m);
        expect(out).toMatch(/^own accounts: 1$/m);
        expect(out).toMatch(/^own transactions: 2$/m);
        expect(out).toMatch(/^source of login \d+: statementFile$/m);
        // The listener was stopped: soon nothing answers on its port (the signal is delivered; the exit takes a moment).
        await expect
          .poll(
            () =>
              fetch(`http://127.0.0.1:${listenPort}/`).then(
                () => 'answering',
                () => 'closed',
              ),
            { timeout: 15_000, interval: 100 },
          )
          .toBe('closed');
      } finally {
        await service.stop();
        fs.rmSync(work, { recursive: true, force: true });
        await db?.drop();
      }
    }, 600_000);
  });
});
