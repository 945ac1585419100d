import { fitDawidSkene } from './dawidSkene';
import { fitGlad } from './glad';
import type { FitInput, LabelModelFit, LabelModelName } from './labelModel';
import { fitMace } from './mace';
import { fitMajorityVote } from './majorityVote';

/** Fits the named model (each with its defaults, stated in its own file). */
export function fitLabelModel(model: LabelModelName, input: FitInput): LabelModelFit {
  switch (model) {
    case 'majority':
      return fitMajorityVote(input);
    case 'dawid-skene':
      return fitDawidSkene(input);
    case 'mace':
      return fitMace(input);
    case 'difficulty':
      return fitGlad(input);
  }
}
