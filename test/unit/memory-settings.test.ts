import { describe, expect, it } from 'vitest';
import { memoryEnv, withMemoryFlags } from '../../src/cli/memory-settings.js';

describe('memory settings of the processes Ledgerlink starts', () => {
  it('adds the young-generation limit to node flags that do not set it', () => {
    expect(withMemoryFlags([])).toEqual(['--max-semi-space-size=4']);
    expect(withMemoryFlags(['--enable-source-maps'])).toEqual(['--enable-source-maps', '--max-semi-space-size=4']);
  });

  it('keeps an operator\'s own choice', () => {
    expect(withMemoryFlags(['--max-semi-space-size=16'])).toEqual(['--max-semi-space-size=16']);
    expect(memoryEnv({ MALLOC_MMAP_THRESHOLD_: '131072' })).toEqual({});
  });

  it('sets the allocator threshold when the environment does not', () => {
    expect(memoryEnv({})).toEqual({ MALLOC_MMAP_THRESHOLD_: '4194304' });
  });
});
