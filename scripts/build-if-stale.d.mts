export const INPUTS: string[];
export const STAMP: string;
export function inputsFingerprint(root?: string, inputs?: string[]): string;
export function buildIsStale(root?: string, inputs?: string[]): boolean;
export function buildIfStale(root?: string): boolean;
