import { expect, it } from 'vitest';
import { archivesGroup } from './cases/archives.cases';
import { qdaFilesGroup } from './cases/qdaFiles.cases';
import { namesGroup } from './cases/names.cases';
import { engineHangGroup } from './cases/engineHang.cases';
import { browserModeGroup } from './cases/browserMode.cases';
import { crashPointsGroup } from './cases/crashPoints.cases';
import { csvInjectionGroup } from './cases/csvInjection.cases';
import { electronPolicyGroup } from './cases/electronPolicy.cases';
import { projectInputsGroup } from './cases/projectInputs.cases';
import { projectLinkGroup } from './cases/projectLinks.cases';
import { deidentificationGroup } from './cases/deidentification.cases';
import { exportsGroup } from './cases/exports.cases';
import { importsGroup } from './cases/imports.cases';
import { roomsGroup } from './cases/rooms.cases';
import { shadowRoomsGroup } from './cases/shadowRooms.cases';
import { wavInputGroup } from './cases/wavInput.cases';
import type { HostileGroup, Surface } from './hostile';

/** Every group of the hostile suite; each runs in its own test file beside this one. */
const GROUPS: ReadonlyArray<HostileGroup<never>> = [
  browserModeGroup,
  projectLinkGroup,
  wavInputGroup,
  csvInjectionGroup,
  projectInputsGroup,
  crashPointsGroup,
  electronPolicyGroup,
  roomsGroup,
  shadowRoomsGroup,
  exportsGroup,
  importsGroup,
  archivesGroup,
  qdaFilesGroup,
  namesGroup,
  engineHangGroup,
  deidentificationGroup,
] as never;

/** The floor per surface: a change that drops cases (or a surface) fails here, so the next pass starts from this suite. */
const FLOOR: Record<Surface, number> = {
  'browser mode': 90,
  files: 115,
  'crash points': 16,
  'electron policy': 60,
  rooms: 125,
  exports: 39,
  imports: 58,
  'de-identification': 34,
};

it('the hostile suite holds at least 150 cases across browser mode, files, crash points, the Electron policy, rooms, exports and imports', () => {
  const perSurface = new Map<Surface, number>();
  for (const group of GROUPS) perSurface.set(group.surface, (perSurface.get(group.surface) ?? 0) + group.cases.length);
  const total = [...perSurface.values()].reduce((a, b) => a + b, 0);
  console.log(
    [
      'hostile cases per surface:',
      ...(Object.keys(FLOOR) as Surface[]).map((s) => `  ${s.padEnd(16)} ${perSurface.get(s) ?? 0}`),
      ...GROUPS.map((g) => `    ${g.surface} / ${g.area}: ${g.cases.length}`),
      `  total            ${total}`,
    ].join('\n'),
  );
  for (const [surface, floor] of Object.entries(FLOOR) as Array<[Surface, number]>)
    expect(perSurface.get(surface) ?? 0, surface).toBeGreaterThanOrEqual(floor);
  expect(total).toBeGreaterThanOrEqual(150);
  const names = GROUPS.flatMap((g) => g.cases.map((c) => `${g.area}: ${c.name}`));
  expect(new Set(names).size, 'case names are unique').toBe(names.length);
});
