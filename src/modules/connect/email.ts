/** The Connect e-mail: a short message with a button to the link, built from the request's `email` fields. */
import { escapeHtml } from './html.js';
import type { Experience } from './experiences.service.js';

export interface ConnectEmailFields {
  to: string;
  from?: string;
  supportPhone?: string;
  subject?: string;
  firstName?: string;
  institutionName?: string;
  institutionAddress?: string;
  signature?: string[];
}

export const DEFAULT_EMAIL_SUBJECT = 'Verify your Financial Information';

export interface ConnectEmail {
  subject: string;
  text: string;
  html: string;
}

/** The e-mail's subject, plain text and HTML (the button is a link styled with the experience's colour). */
export function connectEmail(fields: ConnectEmailFields, link: string, experience: Experience): ConnectEmail {
  const subject = fields.subject?.trim() || DEFAULT_EMAIL_SUBJECT;
  const sender = fields.institutionName?.trim() || experience.appName;
  const greeting = fields.firstName?.trim() ? `Hello ${fields.firstName.trim()},` : 'Hello,';
  const intro = `${sender} asks you to connect your financial accounts securely. It takes a few minutes.`;
  const signature = (fields.signature ?? []).filter((l) => typeof l === 'string' && l.trim() !== '');
  const footer = [fields.institutionAddress?.trim(), fields.supportPhone?.trim() ? `Questions? Call ${fields.supportPhone.trim()}.` : undefined].filter(
    (x): x is string => !!x,
  );
  const text = [
    greeting,
    '',
    intro,
    '',
    `Connect your accounts: ${link}`,
    '',
    'The link is valid for two hours.',
    ...(signature.length ? ['', ...signature] : []),
    ...(footer.length ? ['', ...footer] : []),
  ].join('\n');
  const color = experience.primaryColor;
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#1d2733">` +
    `<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">` +
    `<tr><td><p style="font-size:16px">${escapeHtml(greeting)}</p><p style="font-size:16px;line-height:1.5">${escapeHtml(intro)}</p>` +
    `<p style="margin:32px 0"><a href="${escapeHtml(link)}" style="background:${color};color:#ffffff;padding:14px 28px;border-radius:6px;text-decoration:none;font-weight:bold;display:inline-block">Connect your accounts</a></p>` +
    `<p style="font-size:13px;color:#5b6675">The link is valid for two hours. If the button does not work, copy this address into your browser:<br>${escapeHtml(link)}</p>` +
    (signature.length ? `<p style="font-size:14px">${signature.map(escapeHtml).join('<br>')}</p>` : '') +
    (footer.length
      ? `<hr style="border:none;border-top:1px solid #e3e7ec"><p style="font-size:12px;color:#5b6675">${footer.map(escapeHtml).join('<br>')}</p>`
      : '') +
    `</td></tr></table></body></html>`;
  return { subject, text, html };
}
