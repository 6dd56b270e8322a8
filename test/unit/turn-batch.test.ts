import { describe, expect, it } from 'vitest';
import { TurnBatch } from '../../src/platform/turn-batch.js';

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

describe('TurnBatch', () => {
  it('runs the callbacks of one turn together after that turn, in order, and later ones in a later batch', async () => {
    const ran: string[] = [];
    const batch = new TurnBatch(() => {});
    batch.add(() => ran.push('a'));
    batch.add(() => ran.push('b'));
    await Promise.resolve();
    batch.add(() => ran.push('c'));
    expect(ran, 'nothing runs within the turn that added it').toEqual([]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['a', 'b', 'c']);
    batch.add(() => ran.push('d'));
    await nextTurn();
    expect(ran).toEqual(['a', 'b', 'c', 'd']);
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
    await nextTurn();
    expect(ran).toEqual([1, 3]);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('boom');
  });
});
