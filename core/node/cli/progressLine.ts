import type { CliIo } from './cliSupport';

/** What long work reports as it goes: how much is done of how much (records, bytes). */
export type ProgressReport = (done: number, total: number) => void;

/**
 * A progress line on stderr for long work ("aloud export: 12,400 / 30,000 records (41%)"): only on a terminal (pipes
 * and logs get none), only once the work has taken a second, redrawn at most four times a second, erased at the end.
 */
export function progressLine(
  io: CliIo,
  label: string,
  unit: string,
  now: () => number = () => Date.now(),
): { report: ProgressReport; end: () => void } {
  const started = now();
  let drawn = 0;
  let shown = false;
  const count = (n: number) => n.toLocaleString('en');
  return {
    report(done, total) {
      if (!io.terminal) return;
      const t = now();
      if (t - started < 1000 || t - drawn < 250) return;
      drawn = t;
      shown = true;
      const percent = total > 0 ? ` (${Math.floor((100 * done) / total)}%)` : '';
      io.err(`\r\x1b[2K${label}: ${count(done)} / ${count(total)} ${unit}${percent}`);
    },
    end() {
      if (shown) io.err('\r\x1b[2K');
    },
  };
}
