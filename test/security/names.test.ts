import { namesGroup } from './cases/names.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(namesGroup);
