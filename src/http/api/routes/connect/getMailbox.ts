import Type from 'typebox';
import { listMail } from '../../../../outbox/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { MailList } from '../../../../contract/schemas/connect.js';

/** GET /connect/v2/mailbox (Ledgerlink extension): the partner's e-mail kept locally when SMTP_URL is not set. */
export default function getMailbox(app: App, runtime: Runtime): void {
  app.get('/connect/v2/mailbox', {
    schema: {
      operationId: 'GetMailbox',
      tags: ['Connect'],
      summary: 'Local mailbox (Ledgerlink extension)',
      description:
        'The e-mail Ledgerlink kept for the calling partner instead of sending it, newest first: every message when SMTP_URL is not set (such as Connect e-mails from Send Connect e-mail). The CLI shows the same with `ledgerlink mail list`.',
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 25, description: 'At most this many messages' }) }),
      response: { 200: MailList, ...errorResponses(400, 401, 406) },
    },
    handler: async (request) => {
      const list = await listMail(runtime.database.kysely, { partnerId: request.caller.partnerId, limit: request.query.limit });
      return {
        messages: list.map((m) => ({
          id: m.id,
          eventId: m.eventId,
          to: m.to,
          from: m.from,
          subject: m.subject,
          text: m.text,
          html: m.html,
          createdDate: m.createdAt,
        })),
      };
    },
  });
}
