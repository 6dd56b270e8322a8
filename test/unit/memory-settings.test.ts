import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MEMORY_NODE_FLAGS, memoryEnv, withMemoryFlags } from '../../src/main/cli/memory-settings.js';

const MODULE = fileURLToPath(new URL('../../src/main/cli/memory-settings.ts', import.meta.url));

/** Heap limits in MB of a process started with npm start's flags and of a worker it starts asking for 16 + 1 MB. */
async function limitsUnderStartFlags(release: boolean): Promise<{ worker: number; main: number }> {
  const script = `
    const { letWorkersKeepTheirLimits } = await import(${JSON.stringify(MODULE)});
    const { getHeapStatistics } = await import('node:v8');
    const { Worker } = await import('node:worker_threads');
    const { once } = await import('node:events');
    if (${release}) letWorkersKeepTheirLimits();
    // The worker inherits --input-type=module.
    const worker = new Worker("import { parentPort } from 'node:worker_threads'; import v8 from 'node:v8'; parentPort.postMessage(v8.getHeapStatistics().heap_size_limit);",
      { eval: true, resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 1 } });
    const [limit] = await once(worker, 'message');
    process.stdout.write(JSON.stringify({ worker: limit / 2 ** 20, main: getHeapStatistics().heap_size_limit / 2 ** 20 }));`;
  const { stdout } = await promisify(execFile)(process.execPath, [...MEMORY_NODE_FLAGS, '--import', 'tsx', '--input-type=module', '-e', script]);
  return JSON.parse(stdout);
}

describe('memory settings of the processes Ledgerlink starts', () => {
  it('adds the young-generation limit, single-threaded collection and the heap limit to node flags that do not set them', () => {
    expect(withMemoryFlags([])).toEqual(['--max-semi-space-size=16', '--single-threaded-gc', '--max-old-space-size=1024']);
    expect(withMemoryFlags(['--enable-source-maps'])).toEqual([
      '--enable-source-maps',
      '--max-semi-space-size=16',
      '--single-threaded-gc',
      '--max-old-space-size=1024',
    ]);
  });

  it("keeps an operator's own choice", () => {
    expect(withMemoryFlags(['--max-semi-space-size=32'])).toEqual(['--max-semi-space-size=32', '--single-threaded-gc', '--max-old-space-size=1024']);
    expect(withMemoryFlags(['--no-single-threaded-gc'])).toEqual(['--no-single-threaded-gc', '--max-semi-space-size=16', '--max-old-space-size=1024']);
    expect(withMemoryFlags(['--max_semi_space_size=8', '--single-threaded-gc', '--max_old_space_size=4096'])).toEqual([
      '--max_semi_space_size=8',
      '--single-threaded-gc',
      '--max_old_space_size=4096',
    ]);
    expect(memoryEnv({ MALLOC_MMAP_THRESHOLD_: '131072' })).toEqual({});
  });

  it('sets the allocator threshold when the environment does not', () => {
    expect(memoryEnv({})).toEqual({ MALLOC_MMAP_THRESHOLD_: '4194304' });
  });

  it("lets a worker thread have the heap it asks for, where the start flags would give it the process's", async () => {
    const kept = await limitsUnderStartFlags(true);
    expect(kept.worker).toBeLessThan(64);
    expect(kept.main).toBeGreaterThan(1000);
    // Without it the flags win over the worker's resourceLimits.
    expect((await limitsUnderStartFlags(false)).worker).toBeGreaterThan(1000);
  });
});
