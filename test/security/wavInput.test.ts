import { wavInputGroup } from './cases/wavInput.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(wavInputGroup);
