/**
 * The problems a statement reader names as it reads: what it could not read or had to guess, each with its line when
 * it has one. A hostile file can have a problem on every line, so only so many are listed and the rest counted.
 */
import type { StatementImport } from './types.js';

/** Problems listed one by one; past this, one line says how many more there were. */
export const MAX_PROBLEMS = 500;

/** Names a problem; a message given as a function is written only when it will be listed (past MAX_PROBLEMS it is only counted). */
export type NameProblem = (line: number | undefined, message: string | (() => string)) => void;

export interface ProblemList {
  /** The problems listed so far (the list the reader returns). */
  problems: StatementImport['problems'];
  problem: NameProblem;
  /** Adds the line saying how many more problems there were past MAX_PROBLEMS (`more(count)`), when there were. */
  countMore(more: (count: number) => string): void;
}

/** An empty list of a file's problems, listed up to MAX_PROBLEMS and counted past it. */
export function problemList(): ProblemList {
  const problems: StatementImport['problems'] = [];
  let more = 0;
  return {
    problems,
    problem: (line, text) => {
      if (problems.length >= MAX_PROBLEMS) {
        more++;
        return;
      }
      const message = typeof text === 'string' ? text : text();
      problems.push(line === undefined ? { message } : { line, message });
    },
    countMore: (sentence) => {
      if (more > 0) problems.push({ message: sentence(more) });
    },
  };
}
