import { seededRandom } from '../../../../core/common/agreement/krippendorff';
import type { Annotation } from '../../../../core/common/labelModels/annotationTable';

/** How a simulated annotator labels: each row z is P(label l | truth z). */
export type SimulatedAnnotator = { name: string; confusion: number[][] };

export const LABELS = ['Polite', 'Neutral', 'Rude', 'Sarcastic'];

/** Right with probability `accuracy`, otherwise one of the other labels at random. */
export function goodAnnotator(name: string, accuracy: number, K = LABELS.length): SimulatedAnnotator {
  return {
    name,
    confusion: Array.from({ length: K }, (_, z) => Array.from({ length: K }, (_, l) => (z === l ? accuracy : (1 - accuracy) / (K - 1)))),
  };
}

/** Always the same label, whatever the item. */
export function spammer(name: string, label: number, K = LABELS.length): SimulatedAnnotator {
  return { name, confusion: Array.from({ length: K }, () => Array.from({ length: K }, (_, l) => (l === label ? 1 : 0))) };
}

/** A label at random, whatever the item. */
export function randomClicker(name: string, K = LABELS.length): SimulatedAnnotator {
  return { name, confusion: Array.from({ length: K }, () => Array.from({ length: K }, () => 1 / K)) };
}

/** Good (accuracy) except that labels a and b are read as each other with probability `swap`. */
export function pairConfuser(name: string, accuracy: number, a: number, b: number, swap: number, K = LABELS.length): SimulatedAnnotator {
  const base = goodAnnotator(name, accuracy, K).confusion;
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    base[from] = base[from]!.map((p) => p * (1 - swap));
    base[from]![to]! += swap;
  }
  return { name, confusion: base };
}

export interface SimulatedStudy {
  annotations: Annotation[];
  truth: Map<string, string>;
}

/** Items with true labels from `prior`; each item labelled by `perItem` annotators drawn at random (all when undefined). */
export function simulateStudy(
  seed: number,
  annotators: readonly SimulatedAnnotator[],
  items: number,
  options: { prior?: number[]; perItem?: number } = {},
): SimulatedStudy {
  const random = seededRandom(seed);
  const K = annotators[0]!.confusion.length;
  const prior = options.prior ?? Array.from({ length: K }, () => 1 / K);
  const draw = (p: readonly number[]): number => {
    let u = random();
    for (let k = 0; k < p.length; k++) if ((u -= p[k]!) < 0) return k;
    return p.length - 1;
  };
  const annotations: Annotation[] = [];
  const truth = new Map<string, string>();
  for (let i = 0; i < items; i++) {
    const id = `item-${String(i).padStart(4, '0')}`;
    const z = draw(prior);
    truth.set(id, LABELS[z]!);
    const who = annotators.map((_, j) => j);
    for (let k = who.length - 1; k > 0; k--) {
      const r = Math.floor(random() * (k + 1));
      [who[k], who[r]] = [who[r]!, who[k]!];
    }
    for (const j of who.slice(0, options.perItem ?? who.length))
      annotations.push({ item_id: id, annotator: annotators[j]!.name, label: LABELS[draw(annotators[j]!.confusion[z]!)]! });
  }
  return { annotations, truth };
}
