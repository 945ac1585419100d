/**
 * The Electron fuses the packaged app must have (electron-builder's `electronFuses`), and why: the signed app holds
 * the microphone permission, so nothing may run code under its identity except the code in its own signed asar.
 */
export const REQUIRED_FUSES: Readonly<Record<string, { value: boolean; why: string }>> = {
  runAsNode: { value: false, why: 'ELECTRON_RUN_AS_NODE=1 would turn the app into a plain Node under our signature' },
  enableNodeOptionsEnvironmentVariable: { value: false, why: 'NODE_OPTIONS=--require … would inject code into main' },
  enableNodeCliInspectArguments: { value: false, why: '--inspect or SIGUSR1 would open a debugger into main' },
  enableCookieEncryption: { value: true, why: 'cookies on disk encrypted with the OS key store' },
  enableEmbeddedAsarIntegrityValidation: { value: true, why: 'a modified app.asar must not load' },
  onlyLoadAppFromAsar: { value: true, why: 'an app/ folder beside the asar must not be loaded instead' },
  grantFileProtocolExtraPrivileges: { value: false, why: 'we serve from aloud://, never file://' },
};

/** What is wrong with a packaging config's fuses (and asar), one line each; empty when everything is as required. */
export function fuseProblems(config: unknown): string[] {
  const problems: string[] = [];
  const root = config !== null && typeof config === 'object' ? (config as Record<string, unknown>) : {};
  if (root.asar === false) problems.push('asar: must not be false (the app code must come from the integrity-checked asar)');
  const fuses = root.electronFuses;
  if (fuses === null || typeof fuses !== 'object' || Array.isArray(fuses))
    return [...problems, 'electronFuses: missing (every fuse keeps its unsafe default)'];
  for (const [name, { value, why }] of Object.entries(REQUIRED_FUSES)) {
    const actual = (fuses as Record<string, unknown>)[name];
    if (actual !== value) problems.push(`electronFuses.${name}: must be ${value} (got ${JSON.stringify(actual) ?? 'nothing'}): ${why}`);
  }
  return problems;
}
