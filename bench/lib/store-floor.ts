/**
 * The floor of storing an upload: the transactions an upload stored, read back and inserted again by bare
 * statements into the same tables (their indexes and triggers), a slice of 50 at a time as the upload stores them,
 * each slice one multi-row insert of its transactions and one of an event row each (the record as JSON), committed
 * on its own. What any service that keeps every transaction with its event, and commits as often, pays on this
 * database; the copies are deleted afterwards, outside the time measured.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

/** The upload's slice (statements.service.ts, SLICE). */
const SLICE = 50;
/** Marks the copies' refs (unique per account). */
const COPY = '~floor';

export interface StoreFloor {
  /** Inserts the customer's stored transactions again as above; the time it took, in ms, and how many. */
  measure(customerId: string): Promise<{ ms: number; transactions: number }>;
  close(): Promise<void>;
}

type Row = Record<string, unknown>;

/** The columns of a transaction copy (all but the id) and of its event, with each copy's values. */
function copies(rows: Row[]): { columns: string[]; values: unknown[][]; events: unknown[][] } {
  const columns = Object.keys(rows[0]!).filter((c) => c !== 'id');
  const values = rows.map((r) => columns.map((c) => (c === 'ref' ? `${String(r.ref)}${COPY}` : r[c])));
  const events = rows.map((r) => [r.partner_id, r.customer_id, r.account_id, 'transaction', 'added', JSON.stringify(r), r.created_at]);
  return { columns, values, events };
}

const EVENT_COLUMNS = ['partner_id', 'customer_id', 'account_id', 'class', 'type', 'record', 'created_at'];

function insertSql(table: string, columns: string[], rows: number, placeholder: (n: number) => string): string {
  let n = 0;
  const tuple = () => `(${columns.map(() => placeholder(++n)).join(', ')})`;
  return `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values ${Array.from({ length: rows }, tuple).join(', ')}`;
}

/** On the service's SQLite file, through a connection of its own with the service's durability (WAL, synchronous FULL). */
export function sqliteStoreFloor(file: string): StoreFloor {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  return {
    async measure(customerId) {
      const rows = db.prepare('select * from transactions where customer_id = ? order by id').all(customerId) as Row[];
      if (rows.length === 0) return { ms: 0, transactions: 0 };
      const { columns, values, events } = copies(rows);
      const statements = new Map<number, { tx: Database.Statement; ev: Database.Statement }>();
      const of = (n: number) => {
        let s = statements.get(n);
        if (!s) {
          s = {
            tx: db.prepare(insertSql('transactions', columns, n, () => '?')),
            ev: db.prepare(insertSql('aggregation_events', EVENT_COLUMNS, n, () => '?')),
          };
          statements.set(n, s);
        }
        return s;
      };
      of(SLICE);
      const lastEvent = (db.prepare('select coalesce(max(id), 0) as id from aggregation_events').get() as { id: number }).id;
      const begin = db.prepare('begin');
      const commit = db.prepare('commit');
      const t0 = performance.now();
      for (let i = 0; i < values.length; i += SLICE) {
        const n = Math.min(SLICE, values.length - i);
        const s = of(n);
        begin.run();
        s.tx.run(values.slice(i, i + n).flat());
        s.ev.run(events.slice(i, i + n).flat());
        commit.run();
      }
      const ms = performance.now() - t0;
      db.prepare('delete from transactions where customer_id = ? and ref like ?').run(customerId, `%${COPY}`);
      db.prepare('delete from aggregation_events where id > ? and customer_id = ?').run(lastEvent, customerId);
      return { ms, transactions: rows.length };
    },
    async close() {
      db.close();
    },
  };
}

/** On the service's PostgreSQL schema, through a client of its own. */
export function pgStoreFloor(url: string): StoreFloor {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  return {
    async measure(customerId) {
      await connected;
      const rows = (await client.query('select * from transactions where customer_id = $1 order by id', [customerId])).rows as Row[];
      if (rows.length === 0) return { ms: 0, transactions: 0 };
      const { columns, values, events } = copies(rows);
      const lastEvent = Number((await client.query('select coalesce(max(id), 0) as id from aggregation_events')).rows[0].id);
      const t0 = performance.now();
      for (let i = 0; i < values.length; i += SLICE) {
        const n = Math.min(SLICE, values.length - i);
        await client.query('begin');
        await client.query(
          insertSql('transactions', columns, n, (k) => `$${k}`),
          values.slice(i, i + n).flat(),
        );
        await client.query(
          insertSql('aggregation_events', EVENT_COLUMNS, n, (k) => `$${k}`),
          events.slice(i, i + n).flat(),
        );
        await client.query('commit');
      }
      const ms = performance.now() - t0;
      await client.query('delete from transactions where customer_id = $1 and ref like $2', [customerId, `%${COPY}`]);
      await client.query('delete from aggregation_events where id > $1 and customer_id = $2', [lastEvent, customerId]);
      return { ms, transactions: rows.length };
    },
    async close() {
      await connected;
      await client.end();
    },
  };
}
