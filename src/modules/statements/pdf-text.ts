/**
 * Text as the PDF standard fonts can show it. They carry WinAnsi (Windows-1252) glyphs only, and a character outside
 * that set comes out as unrelated glyphs, so every string goes through pdfText first: accented letters keep their
 * accent where WinAnsi has the letter (é, ñ, ü) or lose it where it does not (ő → o), Greek and Cyrillic letters are
 * transliterated to Latin ones, and anything else (other scripts, emoji, symbols) becomes `?`, one per character.
 */

/** WinAnsi's characters beyond Latin-1 (its 0x80 to 0x9F). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

const TRANSLITERATION: Record<string, string> = {
  // Greek (ELOT 743, simplified)
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
  // Latin letters with a stroke, which have no accent to take off
  ł: 'l',
  đ: 'd',
  ħ: 'h',
  ı: 'i',
  ŧ: 't',
  ŋ: 'ng',
  // Cyrillic (Russian, Ukrainian, Bulgarian, Serbian letters)
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  ґ: 'g',
  д: 'd',
  ђ: 'dj',
  е: 'e',
  є: 'ye',
  ж: 'zh',
  з: 'z',
  и: 'i',
  і: 'i',
  ї: 'yi',
  й: 'y',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'c',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  џ: 'dz',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

function fits(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  return (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch);
}

/** One character as WinAnsi text: itself, its letter without the accent, its transliteration, or `?`. */
function character(ch: string): string {
  if (fits(ch)) return ch;
  const c = ch.codePointAt(0)!;
  // Control characters, line and paragraph separators: a space keeps the words apart on the one line a cell has.
  if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c === 0x2028 || c === 0x2029) return ' ';
  // Joiners, variation selectors and lone accents belong to the character before them, already written.
  if (/\p{Cf}/u.test(ch)) return '';
  const bare = ch.normalize('NFKD').replace(/\p{M}/gu, '');
  if (bare === '') return '';
  if ([...bare].every(fits)) return bare;
  const lower = bare.toLowerCase();
  const latin = TRANSLITERATION[lower];
  if (latin !== undefined) return lower === bare || latin === '' ? latin : latin[0]!.toUpperCase() + latin.slice(1);
  return '?';
}

/** The text with every character the standard fonts cannot show replaced (see above). */
export function pdfText(text: string): string {
  let out = '';
  // By code point (an emoji is one `?`), after composing letters and their accents into one where Unicode has it.
  for (const ch of text.normalize('NFC')) out += character(ch);
  return out;
}
