/**
 * Connect links from a customer's page: Full ("Connect link"), Lite (one institution) and Fix (one institution
 * login), each from a small form; the generated link is shown with a copy button and opens in a new tab.
 */
import type { DashboardConnectLink, DashboardConnectLinkBody, DashboardInstitutionLogin, Experience, ExperienceList } from '../shared/contract.js';
import { api } from './api.js';
import { copyButton, dateTime, field, h, messageOf, onSubmit, section, selectField, toast } from './ui.js';

type Kind = DashboardConnectLink['type'];

/** The test bank: what a Lite link of a testing customer usually names. */
const TEST_BANK = '101732';

const KINDS: Record<Kind, { button: string; title: string; about: string }> = {
  full: { button: 'Connect link', title: 'Connect link (Full)', about: 'The customer finds an institution, signs in and chooses accounts.' },
  lite: { button: 'Lite link', title: 'Lite link', about: 'Signs in at one institution, with MFA, without account management.' },
  fix: { button: 'Fix link', title: 'Fix link', about: 'Signs in again at one institution login, to clear its error (for example 103 or 185).' },
};

/** The last link made for each customer, shown again when the page redraws after another action. */
const lastLinks = new Map<string, DashboardConnectLink>();

function linkResult(link: DashboardConnectLink): HTMLElement {
  const url = h('input', { id: 'connect-link-url', readonly: true, value: link.link, spellcheck: 'false', class: 'link-url' });
  return h(
    'div',
    { class: 'link-result', role: 'group', 'aria-labelledby': 'connect-link-title' },
    h('p', { id: 'connect-link-title', class: 'link-title' }, h('strong', {}, KINDS[link.type].title), ` · valid until ${dateTime(link.expiresAt)}`),
    h('label', { for: url.id, class: 'visually-hidden' }, `${KINDS[link.type].title} URL`),
    h(
      'div',
      { class: 'link-row' },
      url,
      copyButton(`Copy the ${KINDS[link.type].title}`, () => link.link),
      h('a', { class: 'button primary small', href: link.link, target: '_blank', rel: 'noopener' }, 'Open in a new tab'),
    ),
  );
}

export function connectLinksSection(customerId: string, logins: DashboardInstitutionLogin[]): HTMLElement {
  const formArea = h('div', { id: 'connect-link-form' });
  const result = h('div', {});
  const shown = lastLinks.get(customerId);
  if (shown) result.replaceChildren(linkResult(shown));
  let experiences: Promise<Experience[]> | undefined;
  let open: Kind | null = null;
  const buttons = new Map<Kind, HTMLButtonElement>();

  const close = () => {
    open = null;
    formArea.replaceChildren();
    for (const b of buttons.values()) b.setAttribute('aria-expanded', 'false');
  };

  const form = (kind: Kind, experienceList: Experience[]): HTMLElement => {
    const errors = h('div', {});
    const submit = h('button', { type: 'submit', class: 'button primary' }, `Generate ${KINDS[kind].button}`);
    const experience = selectField(
      'Experience',
      experienceList.map((x) => [x.name, x.name === 'default' ? 'default' : `${x.name} (${x.appName})`]),
      { id: 'connect-link-experience', value: 'default' },
    );
    const webhook = h('input', { type: 'url', id: 'connect-link-webhook', maxlength: '2048', placeholder: 'https://…', spellcheck: 'false' });
    const institution = h('input', { id: 'connect-link-institution', inputmode: 'numeric', required: true, value: TEST_BANK, pattern: '[0-9]{1,10}' });
    const login = selectField(
      'Institution login',
      logins.map((l) => [
        String(l.institutionLoginId),
        `${l.institution.name}, login ${l.institutionLoginId}${l.aggregationStatusCode ? ` (error ${l.aggregationStatusCode})` : ''}`,
      ]),
      { id: 'connect-link-login', value: String(logins.find((l) => l.aggregationStatusCode !== 0)?.institutionLoginId ?? '') },
    );
    if (kind === 'fix' && logins.length === 0) {
      return h('div', { class: 'notice', role: 'status' }, 'This customer has no institution login to fix yet: link one with a Connect link first.');
    }
    const fields = [
      kind === 'lite' ? field('Institution ID', institution, 'A testing customer signs in at test institutions only; 101732 is FinBank.') : null,
      kind === 'fix' ? login.el : null,
      kind !== 'fix' ? experience.el : null,
      field('Webhook URL (optional)', webhook, 'Where Connect sends its events for this session.'),
    ];
    return h(
      'form',
      {
        class: 'inline-form',
        'aria-label': `New ${KINDS[kind].title}`,
        onsubmit: onSubmit(submit, errors, 'Generating…', async () => {
          if (kind === 'lite' && !/^\d{1,10}$/.test(institution.value.trim())) {
            institution.focus();
            throw new Error('Enter the institution ID, a number such as 101732.');
          }
          const body: DashboardConnectLinkBody = {
            type: kind,
            ...(webhook.value.trim() ? { webhook: webhook.value.trim() } : {}),
            ...(kind !== 'fix' ? { experience: experience.input.value } : {}),
            ...(kind === 'lite' ? { institutionId: Number(institution.value.trim()) } : {}),
            ...(kind === 'fix' ? { institutionLoginId: Number(login.input.value) } : {}),
          };
          const link = await api<DashboardConnectLink>('POST', `/customers/${encodeURIComponent(customerId)}/connect-links`, body);
          lastLinks.set(customerId, link);
          result.replaceChildren(linkResult(link));
          close();
          toast(`${KINDS[kind].title} generated.`);
          (document.getElementById('connect-link-url') as HTMLInputElement | null)?.focus();
        }),
      },
      h('p', { class: 'muted' }, KINDS[kind].about),
      errors,
      ...fields,
      h(
        'div',
        { class: 'form-actions' },
        submit,
        h(
          'button',
          {
            type: 'button',
            class: 'button secondary',
            onclick: () => {
              close();
              buttons.get(kind)?.focus();
            },
          },
          'Cancel',
        ),
      ),
    );
  };

  for (const kind of ['full', 'lite', 'fix'] as Kind[]) {
    const button = h('button', { type: 'button', class: 'button secondary', 'aria-expanded': 'false', 'aria-controls': formArea.id }, KINDS[kind].button);
    button.addEventListener('click', async () => {
      if (open === kind) return close();
      try {
        experiences ??= api<ExperienceList>('GET', '/experiences').then((r) => r.experiences);
        const list = await experiences;
        close();
        open = kind;
        button.setAttribute('aria-expanded', 'true');
        formArea.replaceChildren(form(kind, list));
        (formArea.querySelector('input:not([readonly]), select, button[type=submit]') as HTMLElement | null)?.focus();
      } catch (e) {
        experiences = undefined;
        toast(messageOf(e), 'error');
      }
    });
    buttons.set(kind, button);
  }

  return section(
    'Connect links',
    h('p', { class: 'muted' }, 'Signed links that open Connect for this customer, valid for two hours. Webhooks of the session go to the URL you give.'),
    h('div', { class: 'button-row' }, ...buttons.values()),
    formArea,
    result,
  );
}
