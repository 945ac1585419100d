import { projectInputsGroup } from './cases/projectInputs.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(projectInputsGroup);
