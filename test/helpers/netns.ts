import { execFileSync, spawnSync } from 'node:child_process';

/**
 * Two network namespaces joined by a veth pair, as two machines on a LAN: `a` gets x.x.x.1, `b` x.x.x.2 on
 * `${net}.${tag}.0/24` (a private range the test names as its own). Needs root and iproute2.
 */
export interface TwoMachines {
  a: { ns: string; ip: string };
  b: { ns: string; ip: string };
  /** builds both namespaces and the link between them */
  up(): void;
  /** removes both namespaces (and the pair with them); safe to call twice */
  down(): void;
}

/** Why the namespaces cannot be made here (not root, no `ip netns`), or undefined when they can. */
export function netnsUnavailable(probe: string): string | undefined {
  if (process.getuid?.() !== 0) return 'not root';
  const r = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (r.status !== 0) return `ip netns unavailable: ${r.stderr.trim() || r.error?.message}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return undefined;
}

export function twoMachines(names: { a: string; b: string; link: string }, net: string, tag: string): TwoMachines {
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
  const a = { ns: names.a, ip: `${net}.${tag}.1` };
  const b = { ns: names.b, ip: `${net}.${tag}.2` };
  const devA = `${names.link}a${tag}`;
  const devB = `${names.link}b${tag}`;
  return {
    a,
    b,
    up() {
      ip('netns', 'add', a.ns);
      ip('netns', 'add', b.ns);
      ip('link', 'add', devA, 'type', 'veth', 'peer', 'name', devB);
      for (const [side, dev] of [
        [a, devA],
        [b, devB],
      ] as const) {
        ip('link', 'set', dev, 'netns', side.ns);
        ip('-n', side.ns, 'addr', 'add', `${side.ip}/24`, 'dev', dev);
        ip('-n', side.ns, 'link', 'set', dev, 'up');
        ip('-n', side.ns, 'link', 'set', 'lo', 'up');
      }
    },
    down() {
      for (const ns of [a.ns, b.ns]) spawnSync('ip', ['netns', 'del', ns]);
    },
  };
}
