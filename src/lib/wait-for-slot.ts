/** Pauses between tries: short at first, since a slot usually frees within one secret check (tens of ms). */
const PAUSES_MS = [10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000, 1000];

/**
 * Calls `reserve` until it answers something other than 'busy', pausing a little longer each time, for about five
 * seconds at most; then gives up with 'busy'. Partners' clients that authenticate many times at once wait a moment
 * instead of being refused, while the attempts actually checked stay within the lock-out's count.
 */
export async function waitForSlot<T>(reserve: () => Promise<T | 'busy'>): Promise<T | 'busy'> {
  for (const pause of PAUSES_MS) {
    const outcome = await reserve();
    if (outcome !== 'busy') return outcome;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return reserve();
}
