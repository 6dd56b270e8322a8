import fs from 'node:fs';
import { formatOpenApiDocument, generateOpenApiDocument } from '../src/main/openapi-document.js';

const doc = await generateOpenApiDocument();
fs.writeFileSync(new URL('../openapi/ledgerlink.openapi.json', import.meta.url), formatOpenApiDocument(doc));
process.stdout.write(`wrote openapi/ledgerlink.openapi.json (${Object.keys(doc.paths as object).length} paths)\n`);
