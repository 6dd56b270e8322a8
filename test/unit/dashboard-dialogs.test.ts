import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const DASHBOARD = path.join(ROOT, 'web', 'dashboard');
/** A call of a browser dialog: confirm(…), window.alert (…), globalThis.prompt(…); not inlineConfirm(…) or a .confirm property. */
const DIALOG_CALL = /(?<![\w.$])(?:(?:window|self|globalThis)\s*\.\s*)?(?:confirm|alert|prompt)\s*\(/;

describe('the dashboard asks in place, never through a browser dialog', () => {
  it('finds the dialog calls it looks for, and none of its look-alikes', () => {
    for (const call of ['window.confirm("Reset?")', 'if (!confirm(x))', 'globalThis.alert (x)', 'self.prompt("name")'])
      expect(DIALOG_CALL.test(call), call).toBe(true);
    for (const fine of ['inlineConfirm(button, {})', 'const confirmReset = 1', "h('div', { class: 'confirm' })", 'options.confirm', 'x.alert(1)'])
      expect(DIALOG_CALL.test(fine), fine).toBe(false);
  });

  it('has no confirm, alert or prompt call in any dashboard script', () => {
    const files = fs.readdirSync(DASHBOARD).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('sandbox.ts');
    const offenders = files.flatMap((f) =>
      fs
        .readFileSync(path.join(DASHBOARD, f), 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `web/dashboard/${f}:${i + 1}`, line: line.trim() }))
        .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*') && DIALOG_CALL.test(line)),
    );
    expect(offenders).toEqual([]);
  });
});
