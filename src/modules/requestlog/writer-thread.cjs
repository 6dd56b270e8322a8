/**
 * The request log's writer thread (see ThreadSink in service.ts): opens the log file, and for each batch inserts its rows in the
 * INSERT sizes it is given, in one transaction (synchronous NORMAL: the log is best effort, the WAL keeps it
 * consistent), then prunes if asked, and answers with how many rows it wrote. It only appends, so a small page
 * cache (256 KiB) holds the pages it touches.
 */
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const { file, columns } = workerData;
const db = new SQLite(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 10000');
db.pragma('cache_size = -256');
const row = '(' + columns.map(() => '?').join(', ') + ')';
const inserts = new Map();
function insertOf(rows) {
  let insert = inserts.get(rows);
  if (!insert) {
    insert = db.prepare('insert into request_log (' + columns.join(', ') + ') values ' + Array(rows).fill(row).join(', '));
    inserts.set(rows, insert);
  }
  return insert;
}
const prune = db.prepare('delete from request_log where created_at_ms < ?');
const width = columns.length;
parentPort.on('message', ({ id, values, sizes, pruneBefore }) => {
  const rows = values.length / width;
  let written = 0;
  try {
    db.transaction(() => {
      let at = 0;
      for (const n of sizes) {
        insertOf(n).run(values.slice(at * width, (at + n) * width));
        at += n;
      }
    })();
    written = rows;
    if (pruneBefore !== undefined) prune.run(pruneBefore);
    parentPort.postMessage({ id, written });
  } catch (e) {
    parentPort.postMessage({ id, written, error: String(e?.message || e) });
  }
});
