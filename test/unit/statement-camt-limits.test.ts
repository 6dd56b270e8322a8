import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { readCamtStatement } from '../../src/connectors/statements/camt.js';
import { StatementFileError } from '../../src/connectors/statements/csv.js';
import { BOOKED, hostileBodies, inStatement, plainBody, SIZE } from '../helpers/camt-bodies.js';
import { orRefused, repeatTo } from '../helpers/cost.js';

/**
 * What the camt reader keeps and holds for hostile bodies: memory and what it leaves to store, not time, so these run
 * with the other unit files rather than alone with the cost ratios (statement-camt-cost.test.ts).
 */
const read = orRefused(readCamtStatement, StatementFileError);

/** What reading leaves to be kept and stored, in characters of its JSON. */
const keptSize = (text: string) => JSON.stringify(read(text) ?? {}).length;

/** Heap a reader thread may use: a few dozen times the plain body, far below what the upload's readers are given. */
const HEAP_LIMIT_MB = 160;

/**
 * Reads each body in a thread of its own whose heap is limited to HEAP_LIMIT_MB: the thread dies (and the promise
 * rejects, naming the body) when one needs more.
 */
function readWithinHeap(bodies: Record<string, string>): Promise<string[]> {
  const reader = new URL('../../src/connectors/statements/camt.ts', import.meta.url).href;
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(reader)}, ${JSON.stringify(reader)})).then(({ readCamtStatement }) => {
      for (const [name, body] of Object.entries(workerData)) {
        parentPort.postMessage({ reading: name });
        try { readCamtStatement(body); } catch (error) { if (error.name !== 'StatementFileError') throw error; }
        parentPort.postMessage({ read: name });
      }
      parentPort.postMessage({ done: true });
    });`;
  return new Promise((resolve, reject) => {
    const done: string[] = [];
    let reading = '';
    const worker = new Worker(code, {
      eval: true,
      workerData: bodies,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB, maxYoungGenerationSizeMb: 32 },
    });
    worker.on('message', (message: { reading?: string; read?: string; done?: boolean }) => {
      if (message.reading !== undefined) reading = message.reading;
      if (message.read !== undefined) done.push(message.read);
      if (message.done) void worker.terminate().then(() => resolve(done));
    });
    worker.on('error', (error) => reject(new Error(`${reading}: ${error.message}`)));
    worker.on('exit', (code) => {
      if (code !== 0 && done.length < Object.keys(bodies).length) reject(new Error(`${reading}: the reader thread stopped (${code})`));
    });
  });
}

describe('the limits of the camt reader on hostile bodies', () => {
  const plain = plainBody();

  it('every body reads within a bounded heap', async () => {
    expect(await readWithinHeap({ plain, ...hostileBodies })).toEqual(['plain', ...Object.keys(hostileBodies)]);
  }, 120_000);

  it('what a hostile body leaves to store is at most what the shortest booked entries leave per character', () => {
    // Each entry becomes a record of its own, whatever its length: the shortest booked ones leave the most.
    const shortest = inStatement(repeatTo(`<Ntry>${BOOKED}</Ntry>`, SIZE));
    const bound = keptSize(shortest) / shortest.length;
    for (const [name, body] of Object.entries(hostileBodies)) {
      const kept = keptSize(body) / body.length;
      expect(kept, `${name}: ${kept.toFixed(2)} characters kept per character read, the shortest entries ${bound.toFixed(2)}`).toBeLessThanOrEqual(bound);
    }
  });

  it('names a bounded number of problems, and texts of a bounded length, however many entries are broken', () => {
    const broken = readCamtStatement(hostileBodies['many empty entries']!);
    expect(broken.problems.length).toBeLessThanOrEqual(501);
    expect(broken.problems.at(-1)?.message).toMatch(/^\d+ more entries could not be read\.$/);
    const huge = readCamtStatement(hostileBodies['one huge text']!);
    expect(huge.transactions[0]!.description.length).toBeLessThanOrEqual(1000);
    const lines = readCamtStatement(hostileBodies['one entry with many remittance lines']!);
    expect(lines.transactions[0]!.description.length).toBeLessThanOrEqual(1000);
  });
});
