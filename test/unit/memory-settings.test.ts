import { describe, expect, it } from 'vitest';
import { memoryEnv, withMemoryFlags } from '../../src/cli/memory-settings.js';

describe('memory settings of the processes Ledgerlink starts', () => {
  it('adds the young-generation limit and single-threaded collection to node flags that do not set them', () => {
    expect(withMemoryFlags([])).toEqual(['--max-semi-space-size=4', '--single-threaded-gc']);
    expect(withMemoryFlags(['--enable-source-maps'])).toEqual(['--enable-source-maps', '--max-semi-space-size=4', '--single-threaded-gc']);
  });

  it('keeps an operator\'s own choice', () => {
    expect(withMemoryFlags(['--max-semi-space-size=16'])).toEqual(['--max-semi-space-size=16', '--single-threaded-gc']);
    expect(withMemoryFlags(['--no-single-threaded-gc'])).toEqual(['--no-single-threaded-gc', '--max-semi-space-size=4']);
    expect(withMemoryFlags(['--max_semi_space_size=8', '--single-threaded-gc'])).toEqual(['--max_semi_space_size=8', '--single-threaded-gc']);
    expect(memoryEnv({ MALLOC_MMAP_THRESHOLD_: '131072' })).toEqual({});
  });

  it('sets the allocator threshold when the environment does not', () => {
    expect(memoryEnv({})).toEqual({ MALLOC_MMAP_THRESHOLD_: '4194304' });
  });
});
