import { readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { type CpuSample, othersBusyCores, threadsForFreeCores } from '../../common/engine/threadChoice';

/** CPU time (ms) process `pid` has used, from /proc on Linux; 0 elsewhere or when it cannot be read. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15) count clock ticks, 100 a second on Linux (USER_HZ)
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

function sampleCpu(related: () => number): CpuSample {
  let busy = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const { user, nice, sys, idle, irq } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + idle + irq;
  }
  const own = process.cpuUsage();
  return { busyMs: busy, totalMs: total, ownMs: (own.user + own.system) / 1000 + related() };
}

/**
 * Watches how many cores other processes use (os.cpus() minus this process's own CPU time, every
 * `intervalMs`) and answers how many threads the next job should take. The timer never keeps a process alive.
 * `related`: CPU time (ms) of processes that count as ours, e.g. the engine process's host, whose recording path
 * is not a neighbour to make room for (it was in the same process when the engine was a worker thread).
 */
export class FreeCoreWatch {
  private readonly related: () => number;
  private last: CpuSample;
  private othersBusy = 0;
  private readonly timer: ReturnType<typeof setInterval>;
  readonly cores = availableParallelism();

  constructor(
    private readonly maxThreads: number,
    intervalMs = 500,
    related: () => number = () => 0,
  ) {
    this.related = related;
    this.last = sampleCpu(related);
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  /** cores other processes kept busy over the last interval */
  get busyElsewhere(): number {
    return this.othersBusy;
  }

  threads(): number {
    return threadsForFreeCores(this.othersBusy, { cores: this.cores, maxThreads: this.maxThreads });
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    const now = sampleCpu(this.related);
    this.othersBusy = othersBusyCores(this.last, now, this.cores);
    this.last = now;
  }
}
