export interface LeftOut {
  feature: string;
  reason: string;
  flags: string[];
  effect: string;
}
export type CpuProbe =
  { amx?: { cpu: boolean; os_enabled?: boolean; permitted?: boolean; runs: boolean; reason: string } } | { error: string };
export declare const NO_AMX_FLAGS: string[];
export declare function isaPlan(probe: CpuProbe, target: { arch: string; native: boolean }): { cflags: string[]; leftOut: LeftOut[] };
export declare function leftOutDefine(leftOut: LeftOut[]): string;
