import { describe, expect, it } from 'vitest';
import { Refusal } from '../../../../core/common/refusal/refusal';
import { parseDeidentifyList } from '../../../../core/common/deidentify/deidentifyList';
import { decideReview, ReviewFold, type ReviewCommand } from '../../../../core/common/deidentify/reviewDecisions';
import { buildReviewView } from '../../../../core/common/deidentify/reviewView';
import { SpanMatcher } from '../../../../core/common/deidentify/spanMatcher';

const matcher = new SpanMatcher(parseDeidentifyList('terms:\n  - {text: Sarah, class: PERSON}\n'));
const text = ' Sarah met May at the Ritz';
const reviewed = { text, sha256: 'a'.repeat(64) };
const at = (word: string) => ({
  utterance: 0,
  segment: 0,
  layer: 'verbatim' as const,
  start: text.indexOf(word),
  end: text.indexOf(word) + word.length,
});
const command = (decision: ReviewCommand['decision'], word: string, cls: string): ReviewCommand => ({
  item_id: 'i1',
  decision,
  span: at(word),
  class: cls,
});
const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof Refusal) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'decided';
};

describe('decideReview', () => {
  it('decides accept, reject and add into an event naming who, span and class, never the words', () => {
    const event = decideReview(command('add', 'Ritz', 'ORG'), reviewed, matcher, 'lead');
    expect(event).toEqual({
      item_id: 'i1',
      decision: 'add',
      span: at('Ritz'),
      class: 'ORG',
      text_sha256: reviewed.sha256,
      reviewer: 'lead',
    });
    expect(decideReview(command('reject', 'Sarah', 'PERSON'), reviewed, matcher, 'lead').decision).toBe('reject');
  });

  it('refuses what a reviewer cannot mean', () => {
    expect(refusal(() => decideReview(command('reject', 'May', 'PERSON'), reviewed, matcher, 'lead'))).toMatch(
      /^bad_request: nothing the list hides/u,
    );
    expect(refusal(() => decideReview(command('accept', 'Sarah', 'PLACE'), reviewed, matcher, 'lead'))).toMatch(/is PERSON, not PLACE/u);
    expect(
      refusal(() =>
        decideReview({ ...command('add', 'Ritz', 'ORG'), span: { ...at('Ritz'), start: at('Ritz').start + 1 } }, reviewed, matcher, 'lead'),
      ),
    ).toMatch(/word edges/u);
    expect(
      refusal(() => decideReview({ ...command('add', 'Ritz', 'ORG'), span: { ...at('Ritz'), end: 999 } }, reviewed, matcher, 'lead')),
    ).toMatch(/not inside the segment/u);
    expect(refusal(() => decideReview(command('add', 'Ritz', 'org'), reviewed, matcher, 'lead'))).toMatch(/capitals/u);
    expect(refusal(() => decideReview(command('add', 'Ritz', 'ORG'), null, matcher, 'lead'))).toMatch(/^not_found/u);
    expect(refusal(() => decideReview(command('add', 'Ritz', 'ORG'), reviewed, matcher, ' '))).toMatch(/reviewer/u);
    // rejecting a span a reviewer added takes it back
    expect(decideReview(command('reject', 'Ritz', 'ORG'), reviewed, matcher, 'lead', true).decision).toBe('reject');
  });
});

describe('ReviewFold and the review view', () => {
  it('keeps the last decision per span, and only decisions made on the current text', () => {
    const fold = new ReviewFold();
    fold.apply(decideReview(command('add', 'Ritz', 'ORG'), reviewed, matcher, 'lead'));
    fold.apply(decideReview(command('reject', 'Sarah', 'PERSON'), reviewed, matcher, 'lead'));
    fold.apply(decideReview(command('accept', 'Sarah', 'PERSON'), reviewed, matcher, 'lead'));
    const now = fold.decisionsOf('i1', () => reviewed.sha256);
    expect(now).toEqual({ rejected: [], added: [{ ...at('Ritz'), class: 'ORG' }], accepted: 1 });
    expect(fold.decisionsOf('i1', () => 'b'.repeat(64))).toEqual({ rejected: [], added: [], accepted: 0 });

    const segment = { utterance: 0, index: 0, t0_ms: 0, t1_ms: 2600, text };
    const view = buildReviewView('i1', [segment], [], matcher, { version: '1', terms: 1, classes: ['PERSON'] }, fold.itemDecisions('i1'));
    expect(view.spans.map((s) => [s.text, s.class, s.decision, s.origin])).toEqual([
      ['Sarah', 'PERSON', 'accept', 'term'],
      ['Ritz', 'ORG', 'add', 'added'],
    ]);
    expect(view.spans[0]!.t0_ms).toBe(100);
  });
});
