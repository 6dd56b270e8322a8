export const BUNDLE_DIR: string;
export function bundle(): Promise<void>;
export function asciiOnly(source: string, name: string): string;
