/** E-mails: the local mailbox. */
import type { Mailbox } from '../shared/contract.js';
import { api } from './api.js';
import { dateTime, emptyState, h, pageHeader, section } from './ui.js';

/** The local mailbox: e-mail kept instead of sent when no SMTP server is configured. */
export async function mailPage(main: HTMLElement): Promise<void> {
  const messages = (await api<Mailbox>('GET', '/mail?limit=50')).messages;
  main.replaceChildren(
    pageHeader('E-mails', 'Messages Ledgerlink kept in its local mailbox (no SMTP_URL set), such as Connect e-mails.'),
    section(
      'Mailbox',
      messages.length === 0
        ? emptyState(
            'The mailbox is empty.',
            h('span', {}, 'Send a Connect e-mail with ', h('code', {}, 'POST /connect/v2/send/email'), ' and it appears here.'),
          )
        : h(
            'div',
            { class: 'mail-list' },
            ...messages.map((m) =>
              h(
                'details',
                { class: 'mail' },
                h('summary', {}, h('strong', {}, m.subject), h('span', { class: 'muted' }, ` to ${m.to} · ${dateTime(m.createdAt)}`)),
                h(
                  'dl',
                  { class: 'details compact' },
                  h('dt', {}, 'From'),
                  h('dd', {}, m.from),
                  h('dt', {}, 'To'),
                  h('dd', {}, m.to),
                  h('dt', {}, 'Event'),
                  h('dd', {}, h('code', {}, m.eventId)),
                ),
                h('pre', { class: 'mail-body', tabindex: '0', 'aria-label': `Text of ${m.subject}` }, m.text),
              ),
            ),
          ),
    ),
  );
}
