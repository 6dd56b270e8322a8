import { StatementFileError } from '../../src/connectors/statements/csv.js';

/** The StatementFileError `run` throws; fails the test when it throws anything else or nothing. */
export function refused(run: () => unknown): StatementFileError {
  try {
    run();
  } catch (error) {
    if (error instanceof StatementFileError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
}
