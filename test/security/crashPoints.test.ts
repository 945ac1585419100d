import { crashPointsGroup } from './cases/crashPoints.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(crashPointsGroup);
