import { projectLinkGroup } from './cases/projectLinks.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(projectLinkGroup);
