import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS } from '../../../contract/schemas/exports.js';
import { isExportFormat, prepareExport } from '../../../modules/exports/service.js';
import { printError } from '../../../platform/terminal-text.js';
import { dataOptions, parse, UsageError } from '../args.js';
import { checkPartnerOption, chooseTarget } from '../mode.js';
import { partnerNote, pickPartner } from '../sandbox-partner.js';
import { clientOptions } from '../settings.js';
import { withRuntime } from '../store.js';

const USAGE = `ledgerlink export --customer ID [--account ID] --format ${EXPORT_FORMAT_NAMES.join('|')} [--from DATE] [--to DATE] [--out FILE] [--partner ID]  [--url URL --app-key KEY --partner-id ID | --profile NAME | --data DIR]`;

/** The file name a Content-Disposition header gives, if any. */
function attachmentName(header: string | null): string | undefined {
  return header ? /filename="([^"]+)"/.exec(header)?.[1] : undefined;
}

/** Writes the file to `out`, or to stdout without one; a file left half written by a failure is removed. */
async function writeOut(source: Readable, out: string | undefined): Promise<number> {
  let bytes = 0;
  source.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  if (out === undefined) {
    await pipeline(source, process.stdout, { end: false });
    return bytes;
  }
  try {
    await pipeline(source, createWriteStream(out));
  } catch (error) {
    await rm(out, { force: true });
    throw error;
  }
  return bytes;
}

/**
 * `ledgerlink export --customer ID --format csv|ofx|qif`: a customer's transactions (one account with --account) as
 * a file (docs/exports.md), through the service's export API in client mode or from the data store in direct mode,
 * to --out FILE or stdout.
 */
export async function exportCommand(argv: string[]): Promise<void> {
  const { values } = parse(
    argv,
    {
      ...dataOptions,
      ...clientOptions,
      customer: { type: 'string' },
      account: { type: 'string' },
      format: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      out: { type: 'string' },
      partner: { type: 'string' },
    },
    USAGE,
  );
  const customerId = values.customer?.trim();
  if (!customerId) throw new UsageError('export needs --customer ID', `usage: ${USAGE}`);
  const format = values.format?.trim().toLowerCase();
  if (!format) throw new UsageError(`export needs --format (${EXPORT_FORMAT_NAMES.join(', ')})`, `usage: ${USAGE}`);
  if (!isExportFormat(format)) throw new UsageError(`--format "${values.format}" is not an export format`, `use one of ${EXPORT_FORMAT_NAMES.join(', ')}`);
  const accountId = values.account?.trim() || undefined;
  const out = values.out?.trim() || undefined;
  const query = { format, fromDate: values.from?.trim() || undefined, toDate: values.to?.trim() || undefined };

  const target = chooseTarget(values);
  let written: { bytes: number; filename: string; note: string };
  if (target.mode === 'client') {
    const { client } = target;
    checkPartnerOption(client, values.partner);
    const path = `/aggregation/v1/customers/${encodeURIComponent(customerId)}${accountId ? `/accounts/${encodeURIComponent(accountId)}` : ''}/export`;
    const res = await client.download(path, { query });
    const bytes = await writeOut(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), out);
    const filename = attachmentName(res.headers.get('content-disposition')) ?? `transactions.${EXPORT_FORMATS[format].extension}`;
    written = { bytes, filename, note: `partner ${client.partnerId} (the partner of the service credentials, at ${client.url})` };
  } else {
    written = await withRuntime(target.dataDir, async (runtime) => {
      const picked = await pickPartner(runtime.database.kysely, values.partner, USAGE, customerId);
      const prepared = await prepareExport(runtime, { partnerId: picked.partnerId, customerId, ...(accountId ? { accountId } : {}), ...query });
      const bytes = await writeOut(Readable.from(prepared.pieces(), { objectMode: false }), out);
      return { bytes, filename: prepared.filename, note: partnerNote(picked) };
    });
  }
  // On stderr, so stdout holds the file alone.
  printError(`${out ? `Wrote ${out}` : `Wrote ${written.filename} to stdout`} (${EXPORT_FORMATS[format].label}, ${written.bytes} bytes) for ${written.note}.`);
}
