import { describe, expect, it } from 'vitest';
import { memoryEnv, withMemoryFlags } from '../../src/main/cli/memory-settings.js';

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
});
