/**
 * Vitest setup of the web project (vitest.config.ts), run before each of its files.
 *
 * Testing Library's waits (findBy…, waitFor) give up after one second by default. Lazy modules load and
 * transform on first use, and a loaded 2-core machine takes several seconds for that (seen: over 5 s at load
 * 9): every wait is on a condition, so a long limit costs nothing when the condition comes. It is set here
 * for every file: the web files share a worker (`isolate: false`), so a limit set by one file's import would
 * otherwise hold only for the files that happen to run after it (ExportButton.test.tsx timed out at 1 s).
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 15_000 });
