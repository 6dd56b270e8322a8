import fs from 'node:fs';
import os from 'node:os';

const FILE = new URL('../../docs/benchmarks.md', import.meta.url);

/** One line naming the machine a measurement ran on. */
export function machineLine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, Node ${process.version}, ${os.platform()}`;
}

/** Replaces (or appends) the marked section `name` of docs/benchmarks.md with `body`. */
export function writeBenchSection(name: string, title: string, body: string): void {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  let doc = fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8') : '# Benchmarks\n';
  const section = `${start}\n${body.trim()}\n${end}`;
  if (doc.includes(start)) doc = doc.replace(new RegExp(`${start}[\\s\\S]*?${end}`), () => section);
  else doc = doc.trimEnd() + `\n\n## ${title}\n\n${section}\n`;
  fs.writeFileSync(FILE, doc.endsWith('\n') ? doc : doc + '\n');
  process.stderr.write(`wrote the "${title}" section of docs/benchmarks.md\n`);
}
