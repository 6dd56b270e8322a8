/**
 * Pay statements (docs/statements.md, "Pay statements"): documents a partner stores for a customer, sealed at rest
 * as personal data is, and offered again through Get Asset by Customer and ID (service.ts) by the asset id the store
 * answers.
 */
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Runtime } from '../../platform/dependencies.js';
import { decryptBytes, encryptBytes } from '../../platform/secrets.js';
import { readInPieces, writeInPieces } from '../../platform/turns.js';
import { STATEMENT_FILE_CHUNK } from '../aggregation/statement-files.service.js';
import { customerNow } from '../aggregation/engine.js';
import { getCustomerForPartner } from '../customers/service.js';
import * as repo from './pay-statements.repository.js';
import { base64Size, MAX_PAY_STATEMENT_BYTES, PAY_STATEMENT_LABELS, payStatementType, typeOfMedia } from './pay-statements.rules.js';

type Deps = Pick<Runtime, 'database' | 'clock' | 'keys'>;

const KEY_PURPOSE = 'pay-statements';
/** The reference's asset ids: a UUID and the customer id. */
const PAY_STATEMENT_ASSET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-\d{1,19}$/;

export function isPayStatementAssetId(assetId: string): boolean {
  return PAY_STATEMENT_ASSET_ID.test(assetId);
}

/**
 * Store Customer Pay Statement: checks the label (16710), the Base64 text (16711), the size (16713) and the type by
 * the first bytes (16712), then keeps the document sealed; its asset id.
 */
export async function storePayStatement(deps: Deps, partnerId: string, customerId: string, input: { label: string; statement: string }) {
  const db = deps.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const label = input.label.trim();
  if (!(PAY_STATEMENT_LABELS as readonly string[]).includes(label))
    throw new ServiceError('PayStatementLabelInvalid', `Invalid label "${label.slice(0, 40)}": it is one of ${PAY_STATEMENT_LABELS.join(', ')}.`);
  const size = base64Size(input.statement);
  if (size === undefined)
    throw new ServiceError('PayStatementNotBase64', 'Invalid statement: it is not Base64 text (the standard alphabet, padding at the end only).');
  // Before decoding: the text says how large the document is.
  if (size > MAX_PAY_STATEMENT_BYTES)
    throw new ServiceError('PayStatementTooLarge', `The pay statement is larger than ${MAX_PAY_STATEMENT_BYTES / 1024 / 1024} MB.`);
  // The decoder skips the line breaks the check allowed.
  const document = Buffer.from(input.statement, 'base64');
  const type = payStatementType(document);
  if (!type) throw new ServiceError('PayStatementTypeUnsupported', 'The pay statement is not a PDF, JPEG or PNG file (by its first bytes).');
  const id = `${randomUUID()}-${customer.id}`;
  const sealed = encryptBytes(deps.keys.derive(KEY_PURPOSE), document);
  // In pieces, a turn each (statement files are kept the same way): a document of megabytes in one statement held
  // every other request.
  await db.transaction().execute(async (tx) => {
    await repo.insertPayStatement(tx, {
      id,
      partner_id: partnerId,
      customer_id: customer.id,
      label,
      media_type: type.mediaType,
      size: document.length,
      created_at: customerNow(deps, customer),
    });
    await writeInPieces(sealed, STATEMENT_FILE_CHUNK, (seq, content) => repo.insertPayStatementChunk(tx, { pay_statement_id: id, seq, content }));
  });
  return { assetId: id };
}

/** One of the customer's pay statements as a file (its name and the document), or undefined. */
export async function findPayStatementFile(deps: Pick<Runtime, 'database' | 'keys'>, of: { partnerId: string; customerId: number }, assetId: string) {
  if (!isPayStatementAssetId(assetId)) return undefined;
  const row = await repo.findPayStatement(deps.database.kysely, of, assetId);
  if (!row) return undefined;
  return {
    filename: `${row.id}${typeOfMedia(row.media_type)?.extension ?? ''}`,
    content: decryptBytes(
      deps.keys.derive(KEY_PURPOSE),
      await readInPieces(await repo.countPayStatementChunks(deps.database.kysely, row.id), (seq) =>
        repo.selectPayStatementChunk(deps.database.kysely, row.id, seq),
      ),
    ),
  };
}
