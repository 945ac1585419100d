import { importsGroup } from './cases/imports.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(importsGroup);
