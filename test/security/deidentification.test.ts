import { deidentificationGroup } from './cases/deidentification.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(deidentificationGroup);
