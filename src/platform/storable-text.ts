/**
 * Text as both databases can store it: PostgreSQL refuses NUL characters in text (SQLite keeps them), and a NUL
 * carries nothing a person reads, so it is dropped wherever text from outside (a bank, a file) is stored.
 */
export function storableText(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

/** storableText of a value that may be absent. */
export function storableTextOrNull<T extends string | null | undefined>(text: T): T {
  return (typeof text === 'string' ? storableText(text) : text) as T;
}
