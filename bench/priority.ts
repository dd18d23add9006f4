/**
 * The browser benches share a 2-core machine with whatever else runs (builds, test runs): a product server
 * and a chromium at the same priority as those get a fraction of the CPU, and their figures then measure
 * the contention (a 7 ms API answer took 500 ms in the page, a favicon 1.4 s, on 2026-11-26). This raises
 * the bench process's scheduling priority (nice -15) before it starts the product and chromium, which
 * inherit it; it needs root (or CAP_SYS_NICE) and says what it got. A product given by MS_BENCH_URL keeps
 * its own priority (renice it: `renice -n -15 -p PID`).
 */
import os from 'node:os';

export const BENCH_NICE = -15;

/** Raises this process's priority; returns the line to print with the results. */
export function raisePriority(): string {
  try {
    os.setPriority(0, BENCH_NICE);
    return `priority: nice ${BENCH_NICE} (the product and chromium inherit it)`;
  } catch (e) {
    return `priority: unchanged (${(e as Error).message}): the figures share the CPU with everything else running`;
  }
}
