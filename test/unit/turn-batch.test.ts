import { describe, expect, it } from 'vitest';
import { TurnBatch } from '../../src/platform/turn-batch.js';

/**
 * Settles in the check phase that runs the batch, after it: immediates run in the order they were queued, so one
 * queued after `add` comes after the batch's own. An order of the event loop, not a time, so a loaded machine
 * cannot change the outcome.
 */
const afterBatch = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('TurnBatch', () => {
  it('runs the callbacks of one turn together after that turn, in order, and later ones in a later batch', async () => {
    const ran: string[] = [];
    const batch = new TurnBatch(() => {});
    batch.add(() => {
      ran.push('a');
      // Runs once the whole batch has: the callbacks of a batch run back to back, not one per turn or microtask.
      queueMicrotask(() => ran.push('after the batch'));
    });
    batch.add(() => ran.push('b'));
    await Promise.resolve();
    batch.add(() => ran.push('c'));
    expect(ran, 'nothing runs within the turn that added it').toEqual([]);
    await afterBatch();
    expect(ran).toEqual(['a', 'b', 'c', 'after the batch']);
    batch.add(() => ran.push('d'));
    expect(ran, 'a callback added after its batch ran waits for the next one').toEqual(['a', 'b', 'c', 'after the batch']);
    await afterBatch();
    expect(ran).toEqual(['a', 'b', 'c', 'after the batch', 'd']);
  });

  it('reports a callback that throws and still runs the rest', async () => {
    const errors: unknown[] = [];
    const ran: number[] = [];
    const batch = new TurnBatch((e) => errors.push(e));
    batch.add(() => ran.push(1));
    batch.add(() => {
      throw new Error('boom');
    });
    batch.add(() => ran.push(3));
    await afterBatch();
    expect(ran).toEqual([1, 3]);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('boom');
  });
});
