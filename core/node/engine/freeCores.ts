import { availableParallelism, cpus } from 'node:os';
import { type CpuSample, othersBusyCores, threadsForFreeCores } from '../../common/engine/threadChoice';

function sampleCpu(): CpuSample {
  let busy = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const { user, nice, sys, idle, irq } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + idle + irq;
  }
  const own = process.cpuUsage();
  return { busyMs: busy, totalMs: total, ownMs: (own.user + own.system) / 1000 };
}

/**
 * Watches how many cores other processes use (os.cpus() minus this process's own CPU time, every
 * `intervalMs`) and answers how many threads the next job should take. The timer never keeps a process alive.
 */
export class FreeCoreWatch {
  private last = sampleCpu();
  private othersBusy = 0;
  private readonly timer: ReturnType<typeof setInterval>;
  readonly cores = availableParallelism();

  constructor(
    private readonly maxThreads: number,
    intervalMs = 500,
  ) {
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
    const now = sampleCpu();
    this.othersBusy = othersBusyCores(this.last, now, this.cores);
    this.last = now;
  }
}
