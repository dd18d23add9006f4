/**
 * Seeds the end-to-end runs' template DATA_DIR (the demo chain baked and indexed) and writes its path to the file
 * named by the first argument. .ci/run runs it beside the web build and gives the path to the runner as
 * MS_E2E_TEMPLATE: the seeding needs only the server bundle, so the two overlap instead of following each other.
 */
import { writeFile } from 'node:fs/promises';
import { seedTemplate } from './global-setup';

const out = process.argv[2];
if (!out) throw new Error('usage: node --import tsx e2e/seed-template.ts <file to write the path to>');
await writeFile(out, await seedTemplate());
