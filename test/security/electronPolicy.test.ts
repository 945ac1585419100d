import { electronPolicyGroup } from './cases/electronPolicy.cases';
import { runHostileGroup } from './hostile';

runHostileGroup(electronPolicyGroup);
