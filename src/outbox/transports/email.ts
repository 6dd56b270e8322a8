import nodemailer from 'nodemailer';
import type { Database } from '../../platform/db/database.js';
import { epochSeconds, type Clock } from '../../platform/clock.js';
import type { ClaimedDelivery } from '../claim.js';
import type { EmailContent } from '../enqueue.js';
import { insertMail } from '../repository.js';
import { excerpt, responseExcerpt, type Transport } from './transport.js';

export interface EmailTransportOptions {
  /** smtp:// or smtps:// URL; without it messages go to the local mailbox. */
  smtpUrl: string | undefined;
  /** Sender when the delivery names none. */
  mailFrom: string;
  /** Whether Test Drive partners' e-mail goes through the SMTP server too (otherwise to the local mailbox). */
  testDriveSmtp: boolean;
  timeoutMs: number;
  database: Database;
  clock: Clock;
}

export interface EmailTransport {
  send: Transport;
  /** Closes the SMTP connection, if any. */
  close(): void;
}

/** The Message-ID of an e-mail delivery: the same on every attempt, so receivers can spot a repeat. */
export function messageIdFor(eventId: string): string {
  return `<${eventId}@ledgerlink>`;
}

/**
 * Delivers e-mail rows. With an SMTP URL, through that server (a 5xx reply cancels the delivery: retrying cannot
 * help); otherwise the message is stored in the local mailbox, which counts as delivered. Test Drive partners sign
 * themselves up and choose the recipient and much of the text, so their e-mail stays in the mailbox unless the
 * operator allows it out (testDriveSmtp): the server is no relay for strangers.
 */
export function createEmailTransport(options: EmailTransportOptions): EmailTransport {
  const smtp = options.smtpUrl
    ? nodemailer.createTransport({
        url: options.smtpUrl,
        connectionTimeout: options.timeoutMs,
        greetingTimeout: options.timeoutMs,
        socketTimeout: options.timeoutMs,
      })
    : undefined;

  const viaSmtp = async (delivery: ClaimedDelivery, content: EmailContent) => {
    let timer: NodeJS.Timeout | undefined;
    // The three stage timeouts above could add up; the attempt as a whole must stay within its timeout.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`SMTP server did not finish within ${options.timeoutMs} ms`)), options.timeoutMs);
    });
    try {
      const info = await Promise.race([
        smtp!.sendMail({
          from: content.from ?? options.mailFrom,
          to: delivery.target,
          subject: content.subject,
          text: content.text,
          ...(content.html ? { html: content.html } : {}),
          messageId: messageIdFor(delivery.event_id),
          headers: { 'X-Ledgerlink-Event-Id': delivery.event_id },
        }),
        deadline,
      ]);
      const code = Number(/^(\d{3})/.exec(String(info.response ?? ''))?.[1] ?? 250);
      return { ok: true, statusCode: code, error: null, response: info.response ? responseExcerpt(String(info.response)) : null };
    } catch (e) {
      const err = e as Error & { responseCode?: number; response?: string };
      const code = typeof err.responseCode === 'number' ? err.responseCode : null;
      return {
        ok: false,
        statusCode: code,
        error: excerpt(err.response ?? err.message, 300),
        permanent: code !== null && code >= 500,
        response: err.response ? responseExcerpt(err.response) : null,
      };
    } finally {
      clearTimeout(timer);
    }
  };

  const toMailbox = async (delivery: ClaimedDelivery, content: EmailContent) => {
    await insertMail(options.database.kysely, {
      partner_id: delivery.partner_id,
      delivery_id: delivery.id,
      event_id: delivery.event_id,
      to_address: delivery.target,
      from_address: content.from ?? options.mailFrom,
      subject: content.subject,
      text_body: content.text,
      html_body: content.html,
      created_at: epochSeconds(options.clock),
    });
    return { ok: true, statusCode: null, error: null };
  };

  // Decided per attempt, so turning testDriveSmtp off also keeps what is still queued.
  const mayUseSmtp = async (partnerId: string) => {
    if (options.testDriveSmtp) return true;
    const partner = await options.database.kysely.selectFrom('partners').select('plan').where('id', '=', partnerId).executeTakeFirst();
    return partner !== undefined && partner.plan !== 'testdrive';
  };

  return {
    send: async (delivery) => {
      const content = JSON.parse(delivery.body) as EmailContent;
      return smtp && (await mayUseSmtp(delivery.partner_id)) ? viaSmtp(delivery, content) : toMailbox(delivery, content);
    },
    close: () => smtp?.close(),
  };
}
