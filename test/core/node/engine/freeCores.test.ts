import { expect, it } from 'vitest';
import { processCpuMs } from '../../../../core/node/engine/freeCores';

it.skipIf(process.platform !== 'linux')(
  'reads another process’s CPU time the way process.cpuUsage() counts its own (the engine process counts its host’s as its own)',
  () => {
    let x = 0;
    for (let i = 0; i < 5e7; i++) x += i % 7;
    const fromProc = processCpuMs(process.pid);
    const own = process.cpuUsage();
    // /proc counts 10 ms ticks
    expect(Math.abs(fromProc - (own.user + own.system) / 1000)).toBeLessThan(40);
    expect(x).toBeGreaterThan(0);
    expect(processCpuMs(2 ** 30)).toBe(0);
  },
);
