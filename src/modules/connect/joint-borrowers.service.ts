/**
 * Joint borrower links (docs/connect-components.md#joint-borrowers): one Full Connect link for two of the partner's
 * customers, the primary borrower (the link's customer) and the joint borrower, each named with its consumer. In the
 * hosted app each borrower links accounts in turn under their own customer: the app says whose accounts it is adding
 * and every call names the borrower it acts for (links.service.ts asBorrower).
 */
import type { Engine } from '../aggregation/engine.js';
import { findConsumerOfCustomer } from '../consumers/service.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { ConnectEmailFields } from './email.js';
import { type GenerateInput, generateLink, sendConnectEmail } from './service.js';

export interface BorrowerInput {
  customerId: string;
  consumerId: string;
  type: string;
  optionalConsumerInfo?: { ssn?: string; dob?: number } | undefined;
}

export type JointBorrowerInput = Omit<GenerateInput, 'customerId' | 'institutionId' | 'institutionLoginId' | 'accountId'> & { borrowers: BorrowerInput[] };

const SSN = /^\d{9}$/;

/**
 * The two borrowers: exactly one `primary` and one `jointBorrower`, two different customers of the partner (one that is
 * not is not found), each with the consumer named (refused otherwise). The optional SSN is checked for its format
 * only: nothing in Connect uses it.
 */
async function borrowersOf(engine: Engine, partnerId: string, borrowers: readonly BorrowerInput[]): Promise<{ primary: CustomerRow; joint: CustomerRow }> {
  const primary = borrowers.filter((b) => b.type.trim() === 'primary');
  const joint = borrowers.filter((b) => b.type.trim() === 'jointBorrower');
  if (borrowers.length !== 2 || primary.length !== 1 || joint.length !== 1) throw new ServiceError('JointBorrowersInvalid');
  const rows: CustomerRow[] = [];
  for (const [index, borrower] of borrowers.entries()) {
    const ssn = borrower.optionalConsumerInfo?.ssn;
    if (ssn !== undefined && !SSN.test(ssn.trim()))
      throw new ServiceError('InvalidParameter', `Invalid parameter (borrowers[${index}].optionalConsumerInfo.ssn): nine digits without hyphens.`);
    const customer = await getCustomerForPartner(engine.runtime.database.kysely, partnerId, borrower.customerId);
    const consumer = await findConsumerOfCustomer(engine.runtime, partnerId, String(customer.id));
    if (!consumer || consumer.id !== borrower.consumerId.trim().toLowerCase()) {
      throw new ServiceError(
        'JointBorrowerConsumerMismatch',
        `Invalid parameter (borrowers[${index}].consumerId): ${borrower.consumerId} is not the consumer of customer ${customer.id}.`,
      );
    }
    rows.push(customer);
  }
  const primaryRow = rows[borrowers.indexOf(primary[0]!)]!;
  const jointRow = rows[borrowers.indexOf(joint[0]!)]!;
  if (Number(primaryRow.id) === Number(jointRow.id))
    throw new ServiceError('JointBorrowersInvalid', 'Invalid parameter (borrowers): the primary and the joint borrower are the same customer.');
  return { primary: primaryRow, joint: jointRow };
}

/** POST /connect/v2/generate/jointBorrower: a Full link of the primary borrower that links the joint borrower's accounts too. */
export async function generateJointBorrowerLink(engine: Engine, input: JointBorrowerInput): Promise<{ link: string }> {
  const { borrowers, ...rest } = input;
  const { primary, joint } = await borrowersOf(engine, input.partnerId, borrowers);
  return { link: (await generateLink(engine, 'full', { ...rest, customerId: String(primary.id) }, { jointCustomerId: Number(joint.id) })).link };
}

/** POST /connect/v2/send/email/jointBorrower: the same link, e-mailed as the Connect e-mail is (outbox, hourly limit). */
export async function sendJointBorrowerEmail(
  engine: Engine,
  input: JointBorrowerInput & { email: ConnectEmailFields },
): Promise<{ link: string; emailConfig: ConnectEmailFields }> {
  const { borrowers, ...rest } = input;
  const { primary, joint } = await borrowersOf(engine, input.partnerId, borrowers);
  return sendConnectEmail(engine, { ...rest, customerId: String(primary.id) }, 'email', { jointCustomerId: Number(joint.id) });
}
