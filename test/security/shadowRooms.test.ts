import { shadowRoomsGroup } from './cases/shadowRooms.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(shadowRoomsGroup);
