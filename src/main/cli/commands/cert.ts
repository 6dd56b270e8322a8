import fs from 'node:fs';
import path from 'node:path';
import selfsigned from 'selfsigned';
import { parse, UsageError } from '../args.js';

const USAGE = 'ledgerlink cert generate [--out DIR] [--host NAME]... [--days N]';

/** `ledgerlink cert generate`: a self-signed development certificate for localhost (and extra host names). */
export async function cert(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    {
      out: { type: 'string', default: './data/tls' },
      host: { type: 'string', multiple: true },
      days: { type: 'string', default: '365' },
    },
    USAGE,
  );
  if (positionals[0] !== 'generate')
    throw new UsageError(positionals[0] ? `unknown cert action "${positionals[0]}"` : 'cert needs an action', `usage: ${USAGE}`);
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 825) throw new UsageError('--days must be a whole number from 1 to 825', `usage: ${USAGE}`);
  const hosts = ['localhost', ...(values.host ?? [])];
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate.getTime() + days * 86_400_000);
  const pems = await selfsigned.generate(
    [
      { name: 'commonName', value: hosts[0]! },
      { name: 'organizationName', value: 'Ledgerlink development' },
    ],
    {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [...hosts.map((value) => ({ type: 2 as const, value })), { type: 7 as const, ip: '127.0.0.1' }, { type: 7 as const, ip: '::1' }],
        },
      ],
    },
  );
  const out = path.resolve(values.out!);
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'cert.pem'), pems.cert);
  fs.writeFileSync(path.join(out, 'key.pem'), pems.private, { mode: 0o600 });
  process.stdout.write(
    `Wrote ${path.join(out, 'cert.pem')} and key.pem (valid ${days} days for ${hosts.join(', ')}, 127.0.0.1, ::1)\nStart with: ledgerlink serve --tls-cert ${path.join(out, 'cert.pem')} --tls-key ${path.join(out, 'key.pem')}\n`,
  );
}
