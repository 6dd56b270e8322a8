import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { enqueueDelivery } from '../../src/outbox/enqueue.js';
import { runDeliveriesOnce } from '../../src/outbox/worker.js';
import { cliArgs, runCli, startProcess } from '../helpers/cli.js';
import { startListener, waitFor } from '../helpers/listener.js';
import { processHarness } from '../helpers/process-store.js';

// Security review (issue 17, item 9): escape sequences from listeners, e-mail and requests reached the terminal raw.

/** Sets the window title, clears the screen, a C1 CSI, DEL, a carriage return that rewrites the line, a bidi override. */
const EVIL = '\x1b]0;owned\x07\x1b[2J\u009b31mred\x7f\rfake\u202eevil';
/** What a terminal acts on; the line feeds between lines are the CLI's own. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;
const SHOWN = '\\x1b]0;owned\\x07\\x1b[2J\\x9b31mred\\x7f\\rfake\\u202eevil';
/** The same in a listener's answer, where the delivery record folds white space (the carriage return) into a space. */
const SHOWN_FOLDED = SHOWN.replace('\\r', ' ');

// Escaping is the CLI's own formatting, the same whichever database the text came from: SQLite alone is enough.
describe('CLI output of text from outside', () => {
  const { openStore, afterTest } = processHarness('sqlite');

  it('deliveries list, mail list and logs tail show control characters escaped, and --json keeps them escaped yet exact', { timeout: 60_000 }, async () => {
    const store = await openStore();
    const db = store.runtime.database.kysely;
    const listener = await startListener(() => ({ status: 500, body: `nope ${EVIL}` }));
    afterTest(() => listener.close());
    await enqueueDelivery(db, store.runtime, { kind: 'webhook', partnerId: store.partnerId, url: listener.url, body: '{}', contentType: 'application/json' });
    await enqueueDelivery(db, store.runtime, {
      kind: 'email',
      partnerId: store.partnerId,
      to: 'consumer@example.com',
      subject: `Hello ${EVIL}`,
      text: `line one\r\nline ${EVIL}`,
    });
    expect(await runDeliveriesOnce(store.runtime)).toBe(2);
    await db
      .insertInto('request_log')
      .values({
        partner_id: store.partnerId,
        method: 'GET',
        path: `/aggregation/v1/customers/${EVIL}`,
        route: null,
        status: 404,
        latency_ms: 1,
        error_code: '14001',
        request_id: 'req-1',
        ip: '127.0.0.1',
        created_at_ms: Date.now(),
      })
      .execute();

    const shownBy: Record<string, string> = {};
    for (const [args, shown] of [
      [['deliveries', 'list'], SHOWN_FOLDED],
      [['mail', 'list'], SHOWN],
      [['logs', 'tail'], SHOWN],
    ] as const) {
      const text = await runCli([...args, '--data', store.data], store.env);
      expect(text.code, args.join(' ')).toBe(0);
      expect(text.stdout, args.join(' ')).not.toMatch(RAW_CONTROL);
      expect(text.stdout, args.join(' ')).toContain(shown);
      shownBy[args.join(' ')] = text.stdout;
    }
    expect(shownBy['mail list']).toContain('  line one\n  line \\x1b]0;owned');

    const deliveries = await runCli(['deliveries', 'list', '--json', '--data', store.data], store.env);
    const messages = await runCli(['mail', 'list', '--json', '--data', store.data], store.env);
    const logs = await runCli(['logs', 'tail', '--json', '--data', store.data], store.env);
    for (const out of [deliveries, messages, logs]) expect(out.stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(deliveries.stdout).deliveries.find((d: { kind: string }) => d.kind === 'webhook').attempts[0].error).toContain(EVIL.replace('\r', ' '));
    expect(JSON.parse(messages.stdout).messages[0].subject).toBe(`Hello ${EVIL}`);
    expect(JSON.parse(logs.stdout).path).toBe(`/aggregation/v1/customers/${EVIL}`);
  });
});

describe('listen printing what it receives', () => {
  it('shows control characters in a delivery body and headers escaped', { timeout: 60_000 }, async () => {
    const p = await startProcess(cliArgs(['listen', '--local', '--port', '0']), {}, 60_000, /listening on (http:\/\/\S+)/);
    try {
      const body = JSON.stringify({ event: { class: `transaction${EVIL}`, type: 'created', records: [{ id: `1${EVIL}`, accountId: 2 }] } });
      // Raw, as fetch refuses to send a C1 character in a header (Node's server takes it, as latin1).
      const { hostname, port } = new URL(p.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), hostname, () => {
          socket.write(
            Buffer.from(
              `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nwebhook-id: msg_\u009b1m\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`,
              'latin1',
            ),
          );
          socket.end(body);
        });
        let text = '';
        socket.on('data', (d) => (text += d));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1.1 200/);
      await waitFor('the printed notification', () => p.stdout().includes('created'));
      expect(p.stdout()).toContain(`transaction${SHOWN}.created`);
      expect(p.stdout()).toContain('msg_\\x9b1m');
      expect(p.stdout()).not.toMatch(RAW_CONTROL);
    } finally {
      p.kill();
      await p.exited;
    }
  });
});
