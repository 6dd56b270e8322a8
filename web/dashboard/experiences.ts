/** Connect experiences: the application name, logo and colour Connect shows; editable, with a live preview. */
import type { Experience, ExperienceBody, ExperienceList } from '../shared/contract.js';
import { api } from './api.js';
import { emptyState, field, h, onSubmit, pageHeader, section, toastAfter } from './ui.js';

const COLOR = /^#[0-9a-fA-F]{6}$/;

function preview(x: ExperienceBody): HTMLElement {
  const mark = h('span', { class: 'preview-mark', 'aria-hidden': 'true' }, (x.appName || '?').slice(0, 1).toUpperCase());
  if (COLOR.test(x.primaryColor)) mark.style.background = x.primaryColor;
  const button = h('span', { class: 'preview-button' }, 'Continue');
  if (COLOR.test(x.primaryColor)) button.style.background = x.primaryColor;
  return h(
    'div',
    { class: 'preview', 'aria-hidden': 'true' },
    h('div', { class: 'preview-bar' }, x.logoUrl ? h('img', { src: x.logoUrl, alt: '' }) : mark, h('strong', {}, x.appName || 'Untitled')),
    button,
  );
}

function experienceForm(x: Experience | null, onSaved: () => Promise<void>): HTMLElement {
  const name = h('input', {
    name: 'name',
    value: x?.name ?? '',
    required: true,
    maxlength: '64',
    pattern: '[A-Za-z0-9._-]{1,64}',
    readonly: x !== null,
    spellcheck: 'false',
  });
  const appName = h('input', { name: 'appName', value: x?.appName ?? '', required: true, maxlength: '255' });
  const logoUrl = h('input', { name: 'logoUrl', type: 'url', value: x?.logoUrl ?? '', maxlength: '2048', placeholder: 'https://…' });
  const color = h('input', { name: 'primaryColor', value: x?.primaryColor ?? '#1f5fbf', required: true, maxlength: '7', spellcheck: 'false' });
  const picker = h('input', { type: 'color', value: x?.primaryColor ?? '#1f5fbf', 'aria-label': 'Colour picker' });
  const errors = h('div', {});
  const shown = h('div', { class: 'preview-holder' });
  const update = () => shown.replaceChildren(preview({ appName: appName.value, logoUrl: logoUrl.value.trim() || null, primaryColor: color.value }));
  picker.addEventListener('input', () => ((color.value = picker.value), update()));
  color.addEventListener('input', () => (COLOR.test(color.value) && (picker.value = color.value.toLowerCase()), update()));
  appName.addEventListener('input', update);
  logoUrl.addEventListener('input', update);
  update();
  const submit = h('button', { type: 'submit', class: 'button primary' }, x ? 'Save changes' : 'Create experience');
  const label = x ? `Experience ${x.name}` : 'New experience';
  return h(
    'form',
    {
      class: 'experience',
      'aria-label': label,
      onsubmit: onSubmit(submit, errors, 'Saving…', async () => {
        await api('PUT', `/experiences/${encodeURIComponent(name.value.trim())}`, {
          appName: appName.value,
          logoUrl: logoUrl.value.trim() || null,
          primaryColor: color.value.trim(),
        } satisfies ExperienceBody);
        await toastAfter(onSaved, `Experience “${name.value.trim()}” saved. New Connect sessions use it.`);
      }),
    },
    h(
      'div',
      { class: 'experience-fields' },
      errors,
      x
        ? x.name === 'default'
          ? h('p', { class: 'muted' }, 'Used when a link names no experience.')
          : null
        : field('Experience name', name, 'Letters, digits, dots, dashes or underscores; links choose it with "experience".'),
      field('Application name', appName),
      field('Logo URL', logoUrl, 'An https image shown at the top of Connect; leave empty for the initial.'),
      h(
        'div',
        { class: 'field' },
        h('label', { for: color.id || (color.id = `c-${Math.random().toString(36).slice(2, 8)}`) }, 'Brand colour'),
        h('div', { class: 'color-row' }, picker, color),
        h('p', { class: 'hint' }, 'A hex colour such as #1f5fbf, used for buttons and focus rings.'),
      ),
      submit,
    ),
    h('div', {}, h('p', { class: 'hint' }, 'Preview'), shown),
  );
}

export async function experiencesPage(main: HTMLElement): Promise<void> {
  const experiences = (await api<ExperienceList>('GET', '/experiences')).experiences;
  const reload = () => experiencesPage(main);
  main.replaceChildren(
    pageHeader('Connect experiences', 'How Connect looks to your customers: application name, logo and brand colour.'),
    ...(experiences.length === 0
      ? [emptyState('No experiences.', 'Create one below.')]
      : experiences.map((x) => section(`Experience: ${x.name}`, experienceForm(x, reload)))),
    section('New experience', experienceForm(null, reload)),
  );
}
