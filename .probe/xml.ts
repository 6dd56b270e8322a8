import fs from 'node:fs';
import { listCustomerTransactions } from '../src/modules/aggregation/transactions.service.js';
import { toTransactionList } from '../src/http/api/routes/transactions/list.js';
import { TransactionList } from '../src/contract/schemas/transactions.js';
import { toXml, xmlWriter } from '../src/contract/xml/serialize.js';
import { openDatabase } from '../src/platform/db/database.js';
import fjs from 'fast-json-stringify';
const seed = JSON.parse(fs.readFileSync('/tmp/xmlprobe/seed.json', 'utf8'));
const database = openDatabase({ sqliteFile: '/tmp/xmlprobe/ledgerlink.sqlite' });
const customer = await database.kysely.selectFrom('customers').selectAll().where('id', '=', seed.firstCustomerId).executeTakeFirstOrThrow();
const now = Math.floor(Date.now() / 1000);
const page = toTransactionList(await listCustomerTransactions({ database } as never, customer as never, { fromDate: now - 365 * 86400, toDate: now, start: 1, limit: 25, sort: 'desc', includePending: false }));
fs.writeFileSync('/tmp/xmlprobe/page.json', JSON.stringify(page));
const json = fjs(TransactionList as never);
const time = (name: string, f: () => string, n = 20000) => { for (let i = 0; i < 2000; i++) f(); const t0 = process.cpuUsage(); let len = 0; for (let i = 0; i < n; i++) len += f().length; const c = process.cpuUsage(t0); console.log(name.padEnd(10), ((c.user + c.system) / n).toFixed(1), 'µs', len / n, 'chars'); };
const w = xmlWriter(TransactionList as never); if (w(page) !== toXml(page, TransactionList as never)) throw new Error('differ'); for (let r = 0; r < 3; r++) { time('xml', () => toXml(page, TransactionList as never)); time('xml-comp', () => w(page)); time('json-fjs', () => json(page)); time('JSON', () => JSON.stringify(page)); }
await database.close();
