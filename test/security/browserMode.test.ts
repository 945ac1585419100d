import { browserModeGroup } from './cases/browserMode.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(browserModeGroup);
