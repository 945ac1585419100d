import { csvInjectionGroup } from './cases/csvInjection.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(csvInjectionGroup);
