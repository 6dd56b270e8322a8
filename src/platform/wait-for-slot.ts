/**
 * Longest pauses between tries, about five seconds in all. An attempt that ends in this process wakes the next
 * waiter at once; the pauses are for slots freed by other processes.
 */
const PAUSES_MS = [
  5, 10, 20, 40, 80, 160, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200,
];

/** Waiters of this process by key, first come first served. */
const waiting = new Map<string, Array<() => void>>();

function pause(key: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const queue = waiting.get(key) ?? [];
    waiting.set(key, queue);
    const wake = () => {
      clearTimeout(timer);
      const i = queue.indexOf(wake);
      if (i !== -1) queue.splice(i, 1);
      if (queue.length === 0 && waiting.get(key) === queue) waiting.delete(key);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    queue.push(wake);
  });
}

/**
 * Calls `reserve` until it answers something other than 'busy', waiting between tries for a slot under `key` to
 * free ({@link slotFreed}) or a pause to pass, for about five seconds at most; then gives up with 'busy'. Partners'
 * clients that authenticate many times at once wait a moment instead of being refused, while the attempts actually
 * checked stay within the lock-out's count.
 */
export async function waitForSlot<T>(key: string, reserve: () => Promise<T | 'busy'>): Promise<T | 'busy'> {
  for (const ms of PAUSES_MS) {
    const outcome = await reserve();
    if (outcome !== 'busy') return outcome;
    await pause(key, ms);
  }
  return reserve();
}

/** Says that an attempt under `key` ended in this process: the longest-waiting caller tries again at once. */
export function slotFreed(key: string): void {
  waiting.get(key)?.[0]?.();
}
