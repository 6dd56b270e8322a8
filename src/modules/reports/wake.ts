import { EventEmitter } from 'node:events';

/**
 * Wake-ups for this process's report workers, so that a report asked for here starts at once instead of at the
 * next poll. A hint only: workers also poll, which is how other processes' workers find it.
 */
const asked = new EventEmitter();
asked.setMaxListeners(0);

/** Tells this process's report workers that a report was asked for (call it once the report's row is committed). */
export function signalReportsDue(): void {
  asked.emit('due');
}

/** Calls `onDue` whenever a report is asked for in this process; returns a function that stops listening. */
export function onReportsDue(onDue: () => void): () => void {
  asked.on('due', onDue);
  return () => asked.off('due', onDue);
}
