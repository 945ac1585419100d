import { roomsGroup } from './cases/rooms.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(roomsGroup);
