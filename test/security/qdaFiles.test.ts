import { qdaFilesGroup } from './cases/qdaFiles.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(qdaFilesGroup);
