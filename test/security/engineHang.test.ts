import { engineHangGroup } from './cases/engineHang.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(engineHangGroup);
