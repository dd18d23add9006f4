/** Writes src/generated/openapi.ts from the committed docs/openapi.json (`npm run generate -w packages/client`). */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CLIENT_DIR, TYPES_FILE, generateTypes } from './generate-types';

const DOCUMENT = path.resolve(CLIENT_DIR, '../../docs/openapi.json');

await mkdir(path.dirname(TYPES_FILE), { recursive: true });
await writeFile(TYPES_FILE, await generateTypes(await readFile(DOCUMENT, 'utf8')));
console.log(`wrote ${path.relative(process.cwd(), TYPES_FILE)}`);
