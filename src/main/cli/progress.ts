/** A progress bar on stderr: redrawn in place on a terminal, a line every tenth of the way otherwise (logs, CI). */
export interface ProgressBar {
  update(done: number, detail?: string): void;
  finish(detail?: string): void;
}

const WIDTH = 30;

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const m = Math.floor(seconds / 60);
  return m < 60 ? `${m}m${String(Math.round(seconds % 60)).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export function progressBar(label: string, total: number, stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): ProgressBar {
  const started = now();
  const tty = stream.isTTY === true;
  let lastTenth = -1;
  const line = (done: number, detail: string | undefined) => {
    const fraction = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(fraction * WIDTH);
    const elapsed = (now() - started) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    const eta = rate > 0 ? (total - done) / rate : Infinity;
    return (
      `${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}` +
      `${detail ? ` · ${detail}` : ''} · ${Math.round(rate).toLocaleString('en-US')}/s · ${done >= total ? `took ${formatDuration(elapsed)}` : `ETA ${formatDuration(eta)}`}`
    );
  };
  return {
    update(done, detail) {
      if (tty) {
        stream.write(`\r${line(done, detail)}\x1b[K`);
        return;
      }
      const tenth = Math.floor((total > 0 ? done / total : 1) * 10);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(line(done, detail) + '\n');
      }
    },
    finish(detail) {
      stream.write(tty ? `\r${line(total, detail)}\x1b[K\n` : lastTenth < 10 ? line(total, detail) + '\n' : '');
    },
  };
}
