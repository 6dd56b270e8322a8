import fc from 'fast-check';

/**
 * One seed for every property and fuzz test of a run: fixed under CI (CI=true) so a red CI is a reproducible
 * failure, fresh otherwise so local runs keep exploring. vitest.config.ts picks it and prints it; a failure also
 * prints it, and `LEDGERLINK_TEST_SEED=<seed> npm test` repeats the run.
 */
const seed = Number(process.env.LEDGERLINK_TEST_SEED);
if (Number.isSafeInteger(seed)) fc.configureGlobal({ seed });
