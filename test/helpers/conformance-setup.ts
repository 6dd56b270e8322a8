import { afterAll, afterEach, beforeEach, expect, inject } from 'vitest';
import { conformanceMode, formatDrift, recentDrifts, resetTally, tally } from './conformance.js';
import { writePartial } from './conformance-summary.js';

// Loaded before each integration test file (vitest.config.ts setupFiles). The check itself runs in
// checkConformance (conformance.ts), which createTestContext applies to every app it builds.

beforeEach(() => {
  recentDrifts.length = 0;
});

// A drift throws from the request that met it; should the test have swallowed that error, it still fails here.
afterEach((context) => {
  const drifts = recentDrifts.splice(0);
  if (drifts.length === 0 || conformanceMode() !== 'fail') return;
  const reported = (context.task.result?.errors ?? []).some((e) => String(e?.message ?? '').startsWith('Conformance drift'));
  if (!reported) throw new Error(drifts.map(formatDrift).join('\n'));
});

afterAll(() => {
  const dir = inject('conformanceDir');
  if (dir && tally.inScope + tally.outOfScope > 0) writePartial(dir, expect.getState().testPath ?? 'unknown', tally);
  resetTally();
});
