import fs from 'node:fs';
import { renderErrorsDoc } from '../src/contract/errors/doc.js';

fs.writeFileSync(new URL('../docs/errors.md', import.meta.url), renderErrorsDoc());
process.stdout.write('wrote docs/errors.md\n');
