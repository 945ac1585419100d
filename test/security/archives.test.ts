import { archivesGroup } from './cases/archives.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(archivesGroup);
