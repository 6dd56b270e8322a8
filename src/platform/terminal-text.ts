/**
 * What the CLI prints comes partly from outside: listener answers, e-mail subjects and bodies, request paths, names
 * and URLs partners chose, delivery bodies `listen` receives. Reaching the operator's terminal raw, an ESC or a C1
 * CSI (U+009B) can move the cursor, rewrite earlier lines, set the window title or make some terminals type an
 * answer into the shell; a bidi override reorders what is shown. So every such character is printed as a visible
 * escape (`\x1b`, `\x9b`, `\u202e`) instead, in text and in `--json` output alike, through these functions only.
 * The server's log lines (JSON on the terminal of whoever runs `ledgerlink serve`) go through escapeJsonText too.
 */

/** C0 controls, DEL, C1 controls, the Unicode line and paragraph separators, and bidi marks, embeddings, overrides and isolates. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same, less line feed and tab: what a multi-line text (an e-mail body) may keep. */
const UNSAFE_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw of the above (it escapes only C0). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(c: string): string {
  const code = c.charCodeAt(0);
  return SHORT[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
}

/** A field printed on one line (a subject, a URL, an error): every control character shown, line breaks too. */
export function oneLine(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** A text printed over several lines (an e-mail body): line feeds and tabs kept, CRLF read as LF, every other control shown. */
export function multiLine(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE_IN_LINES, visible);
}

/** JSON text with what JSON.stringify leaves raw escaped as \\uXXXX: the same value, nothing a terminal acts on. */
export function escapeJsonText(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A value as one line of JSON that parses to the same value and holds no character a terminal acts on. */
export function jsonLine(value: unknown): string {
  return escapeJsonText(JSON.stringify(value));
}

/** Prints text and a line feed on stdout; anything a field left unescaped is shown escaped here. */
export function print(text: string): void {
  process.stdout.write(multiLine(text) + '\n');
}

/** Prints a value as one line of JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(jsonLine(value) + '\n');
}

/** Prints text and a line feed on stderr (error messages may quote stored data). */
export function printError(text: string): void {
  process.stderr.write(multiLine(text) + '\n');
}
