import type { InstitutionRow } from './table.js';

/**
 * Branding images of every institution, generated as SVG from its name and brand colour (deterministic, no
 * files): the initials on a badge in the brand colour, with the name beside them. Sizes follow the reference:
 * logo and alternateLogo 375 x 72 (alternateLogo for coloured backgrounds), tile 160 x 72, icon square.
 */
export const BRANDING_ASSETS = ['logo', 'alternateLogo', 'icon', 'tile'] as const;
export type BrandingAsset = (typeof BRANDING_ASSETS)[number];

export function isBrandingAsset(name: string): name is BrandingAsset {
  return (BRANDING_ASSETS as readonly string[]).includes(name);
}

/** Where Ledgerlink serves an institution's branding image. */
export function brandingAssetUrl(publicUrl: string, institutionId: number, asset: BrandingAsset): string {
  return `${publicUrl}/institution/assets/${institutionId}/${asset}.svg`;
}

const SMALL_WORDS = new Set(['of', 'the', 'and', '&', 'de', 'du', 'des', 'la', 'le', "d'", 'at', 'for']);

/** Up to three initials of the significant words ("Bank of America" gives "BA", "U.S. Bank" gives "USB"). */
export function initialsOf(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[\s\-/]+/)
    .map((w) => w.replace(/[^A-Za-z0-9.]/g, ''))
    .filter((w) => w && !SMALL_WORDS.has(w.toLowerCase()));
  const letters = words.flatMap((w) => (/^([A-Za-z]\.)+[A-Za-z]?\.?$/.test(w) ? w.replace(/\./g, '').split('') : [w[0]!]));
  return (letters.slice(0, 3).join('') || '?').toUpperCase();
}

const COLOR = /^#[0-9A-Fa-f]{6}$/;
const FALLBACK_COLOR = '#4B5563';

function brandColor(color: string): string {
  return COLOR.test(color) ? color.toUpperCase() : FALLBACK_COLOR;
}

/** Dark text on light colours, white on dark ones (WCAG relative luminance). */
function textOn(color: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(color.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 ? '#111827' : '#FFFFFF';
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Shortens text to fit `width` at `size` px (average glyph width about 0.56 em). */
function fitWidth(text: string, width: number, size: number): string {
  const max = Math.floor(width / (size * 0.56));
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1)).trimEnd()}\u2026`;
}

const FONT = 'font-family="Helvetica, Arial, sans-serif" font-weight="700"';

function badge(x: number, y: number, size: number, fill: string, ink: string, initials: string): string {
  const fontSize = Math.round(size * (initials.length === 1 ? 0.5 : initials.length === 2 ? 0.42 : 0.34));
  return (
    `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${Math.round(size * 0.2)}" fill="${fill}"/>` +
    `<text x="${x + size / 2}" y="${y + size / 2}" dy="0.35em" text-anchor="middle" font-size="${fontSize}" ${FONT} fill="${ink}">${escapeXml(initials)}</text>`
  );
}

function svg(width: number, height: number, title: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}"><title>${escapeXml(title)}</title>${body}</svg>\n`;
}

/** A 375 x 72 image: the badge, then the name as large as fits. */
function wide(name: string, badgeSvg: string, nameColor: string): string {
  const size = Math.max(14, Math.min(26, Math.floor(283 / (name.length * 0.56))));
  return svg(
    375,
    72,
    name,
    `${badgeSvg}<text x="80" y="36" dy="0.35em" font-size="${size}" ${FONT} fill="${nameColor}">${escapeXml(fitWidth(name, 283, size))}</text>`,
  );
}

/** The SVG document of one branding image of an institution. */
export function renderBrandingAsset(institution: Pick<InstitutionRow, 'name' | 'primary_color'>, asset: BrandingAsset): string {
  const color = brandColor(institution.primary_color);
  const ink = textOn(color);
  const initials = initialsOf(institution.name);
  const name = institution.name;
  switch (asset) {
    case 'icon':
      return svg(72, 72, name, badge(0, 0, 72, color, ink, initials));
    case 'logo':
      // On white: the name in the brand colour unless that is too light to read.
      return wide(name, badge(12, 8, 56, color, ink, initials), ink === '#FFFFFF' ? color : '#111827');
    case 'alternateLogo':
      // On the brand colour: a white badge and white text.
      return wide(name, badge(12, 8, 56, '#FFFFFF', color, initials), '#FFFFFF');
    case 'tile': {
      const words = name.split(' ');
      let first = '';
      while (words.length && `${first} ${words[0]}`.trim().length <= 13) first = `${first} ${words.shift()}`.trim();
      if (!first) first = words.shift() ?? '';
      const second = words.join(' ');
      const lines = [fitWidth(first, 100, 12), ...(second ? [fitWidth(second, 100, 12)] : [])];
      const top = lines.length === 1 ? 36 : 28;
      const text = lines.map((l, i) => `<text x="58" y="${top + i * 16}" dy="0.35em" font-size="12" ${FONT} fill="#111827">${escapeXml(l)}</text>`).join('');
      return svg(160, 72, name, `<rect width="160" height="72" rx="8" fill="#FFFFFF"/>${badge(8, 16, 40, color, ink, initials)}${text}`);
    }
  }
}
