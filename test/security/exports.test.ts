import { exportsGroup } from './cases/exports.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(exportsGroup);
