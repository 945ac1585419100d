import { describe, expect, it } from 'vitest';
import { InputError, type InputProblem } from '../../../../core/common/io/inputProblem';
import { parseJsonLines } from '../../../../core/common/io/jsonInput';
import { conversationsToItems, messagesFromRecords } from '../../../../core/common/items/conversations';
import { mergeItems } from '../../../../core/common/items/itemsMerge';
import { parseItemsText, type TabularFormat } from '../../../../core/common/items/itemsSource';
import type { LabelSchemaContext } from '../../../../core/common/reasoning/modelLabel';
import { resolveModelLabel } from '../../../../core/common/reasoning/modelLabel';

const schema: LabelSchemaContext = {
  labels: [
    { name: 'Polite', synonyms: { en: ['courteous'], de: ['höflich'] } },
    { name: 'Impolite', synonyms: { en: ['rude'], de: ['unhöflich'] } },
    { name: 'Neutral', synonyms: { de: ['neutral'] } },
  ],
  languages: ['en', 'de'],
};

function problems(run: () => unknown): InputProblem[] {
  try {
    run();
  } catch (e) {
    if (e instanceof InputError) return e.problems;
    throw e;
  }
  throw new Error('expected an InputError');
}

describe('items with model reasoning', () => {
  it('reads model_reasoning, model_steps and model_label in every format, resolving the label to its schema name', () => {
    const jsonl = [
      '{"id":"a","text":"Thanks!","model_reasoning":"1. It thanks.\\n2. Polite.","model_label":"polite."}',
      '{"id":"b","text":"No.","model_steps":["It refuses.","So rude."],"model_label":"rude","lang":"en"}',
      '{"id":"c","text":"Ok."}',
    ].join('\n');
    const expected = [
      { id: 'a', text: 'Thanks!', model_reasoning: '1. It thanks.\n2. Polite.', model_label: 'Polite' },
      { id: 'b', text: 'No.', model_steps: ['It refuses.', 'So rude.'], model_label: 'Impolite', meta: { lang: 'en' } },
      { id: 'c', text: 'Ok.' },
    ];
    expect(parseItemsText(jsonl, 'i.jsonl', 'jsonl', schema)).toEqual(expected);
    const json = `[${jsonl.split('\n').join(',\n')}]`;
    expect(parseItemsText(json, 'i.json', 'json', schema)).toEqual(expected);
    const csv =
      'id,text,model_reasoning,model_steps,model_label,lang\r\na,Thanks!,"1. It thanks.\n2. Polite.",,polite.,\r\nb,No.,,"[""It refuses."",""So rude.""]",rude,en\r\nc,Ok.,,,,\r\n';
    expect(parseItemsText(csv, 'i.csv', 'csv', schema)).toEqual([
      { id: 'a', text: 'Thanks!', model_reasoning: '1. It thanks.\n2. Polite.', model_label: 'Polite', meta: { lang: '' } },
      expected[1],
      { id: 'c', text: 'Ok.', meta: { lang: '' } },
    ]);
  });

  it('resolves the model label by the staged matcher: name, synonym of an active language, one close fuzzy match', () => {
    expect(resolveModelLabel('Polite', schema)).toEqual({ label: 'Polite', via: 'name' });
    expect(resolveModelLabel('Höflich', schema)).toEqual({ label: 'Polite', via: 'synonym' });
    expect(resolveModelLabel('Impolit', schema)).toEqual({ label: 'Impolite', via: 'fuzzy' });
    expect(resolveModelLabel('höflich', { ...schema, languages: ['en'] })).toMatchObject({
      problem: expect.stringContaining('not a label'),
    });
    expect(resolveModelLabel('Polite, mostly', schema)).toMatchObject({ problem: expect.stringContaining('not a label') });
    const tied: LabelSchemaContext = {
      labels: [
        { name: 'Good', synonyms: { en: ['ok'] } },
        { name: 'Fine', synonyms: { en: ['ok'] } },
      ],
      languages: ['en'],
    };
    expect(resolveModelLabel('ok', tied)).toMatchObject({ problem: expect.stringContaining('could be any of "Good", "Fine"') });
  });

  it.each<[string, TabularFormat, string, number, string, string]>([
    [
      'both reasoning forms',
      'jsonl',
      '{"id":"a","text":"x"}\n{"id":"b","text":"x","model_reasoning":"r","model_steps":["s"]}\n',
      2,
      'model_steps',
      'not both',
    ],
    [
      'an unknown model label',
      'jsonl',
      '{"id":"a","text":"x","model_label":"purple"}\n',
      1,
      'model_label',
      '"purple" is not a label of the schema (labels: Polite, Impolite, Neutral)',
    ],
    ['an empty step list', 'jsonl', '{"id":"a","text":"x","model_steps":[]}\n', 1, 'model_steps', 'must NOT have fewer than 1 items'],
    ['a blank step', 'jsonl', '{"id":"a","text":"x","model_steps":["ok","  "]}\n', 1, 'model_steps[1]', 'must match pattern'],
    ['steps as a text', 'jsonl', '{"id":"a","text":"x","model_steps":"one. two."}\n', 1, 'model_steps', 'must be array, not string'],
    ['a number as reasoning', 'jsonl', '{"id":"a","text":"x","model_reasoning":7}\n', 1, 'model_reasoning', 'must be string, not number'],
    [
      'a located label in a JSON array',
      'json',
      '[\n {"id":"a","text":"x"},\n {"id":"b","text":"y",\n  "model_label":"meh"}\n]',
      3,
      '[1].model_label',
      'is not a label',
    ],
    [
      'a CSV steps cell that is not JSON',
      'csv',
      'id,text,model_steps\r\na,x,[\r\n',
      2,
      'model_steps',
      'a model_steps cell holds a JSON array of strings',
    ],
    ['a CSV steps cell with a number', 'csv', 'id,text,model_steps\r\na,x,"[1]"\r\n', 2, 'model_steps[0]', 'must be string'],
  ])('rejects %s, located by line and field', (_what, format, text, line, field, fragment) => {
    const [first] = problems(() => parseItemsText(text, `items.${format}`, format, schema));
    expect(first).toMatchObject({ file: `items.${format}`, line, field });
    expect(first!.message).toContain(fragment);
  });

  it("keeps an unresolvable model label as written when the schema says keep (the project's items after a rename)", () => {
    expect(
      parseItemsText('{"id":"a","text":"x","model_label":"polite"}\n{"id":"b","text":"y","model_label":"Kind"}\n', 'i.jsonl', 'jsonl', {
        ...schema,
        unresolved: 'keep',
      }),
    ).toEqual([
      { id: 'a', text: 'x', model_label: 'Polite' },
      { id: 'b', text: 'y', model_label: 'Kind' },
    ]);
  });

  it('keeps a model label as written when no schema is given (nothing to resolve against)', () => {
    expect(parseItemsText('{"id":"a","text":"x","model_label":"purple"}\n', 'i.jsonl', 'jsonl')).toEqual([
      { id: 'a', text: 'x', model_label: 'purple' },
    ]);
  });

  it('an import that changes only the reasoning changes the item', () => {
    const [old] = parseItemsText('{"id":"a","text":"x","model_steps":["one"]}', 'i.jsonl', 'jsonl');
    const [changed] = parseItemsText('{"id":"a","text":"x","model_steps":["two"]}', 'i.jsonl', 'jsonl');
    expect(mergeItems([old!], [changed!], 'append').changed).toEqual(['a']);
    expect(mergeItems([old!], [old!], 'append').unchanged).toEqual(['a']);
  });
});

describe("conversation imports carry the assistant turn's reasoning", () => {
  const read = (messages: object[], withSchema = true) =>
    messagesFromRecords(
      parseJsonLines(messages.map((m) => JSON.stringify(m)).join('\n'), 'c.jsonl'),
      'c.jsonl',
      withSchema ? schema : undefined,
    );
  const user = { message_id: 'u1', parent_id: null, role: 'user', text: 'Refund?', session_id: 's' };

  it('puts reasoning (or reasoning_content) and the model label on the item', () => {
    const result = conversationsToItems(
      read([
        user,
        {
          message_id: 'a1',
          parent_id: 'u1',
          role: 'assistant',
          text: 'No.',
          session_id: 's',
          reasoning: 'They ask. I refuse.',
          model_label: 'rude',
        },
        { message_id: 'a2', parent_id: 'u1', role: 'assistant', text: 'Sure!', session_id: 's', reasoning_content: '1. Help.\n2. Done.' },
        { message_id: 'a3', parent_id: 'u1', role: 'assistant', text: 'Hm.', session_id: 's', reasoning: '  ' },
      ]),
    );
    expect(result.items.map((i) => [i.id, i.model_reasoning, i.model_label])).toEqual([
      ['a1', 'They ask. I refuse.', 'Impolite'],
      ['a2', '1. Help.\n2. Done.', undefined],
      ['a3', undefined, undefined],
    ]);
    expect(result.items[0]!.meta).toEqual({ conversation_id: 's', context_id: 'u1' });
  });

  it('rejects reasoning on a user message, both reasoning fields, and an unknown model label, located', () => {
    const found = problems(() =>
      read([
        { ...user, reasoning: 'hidden' },
        { message_id: 'a1', parent_id: 'u1', role: 'assistant', text: 'No.', session_id: 's', reasoning: 'a', reasoning_content: 'b' },
        { message_id: 'a2', parent_id: 'u1', role: 'assistant', text: 'No.', session_id: 's', model_label: 'purple' },
      ]),
    );
    expect(found.map((p) => [p.line, p.field, p.stage])).toEqual([
      [1, 'reasoning', 'rule'],
      [2, 'reasoning_content', 'rule'],
      [3, 'model_label', 'rule'],
    ]);
    expect(found[0]!.message).toContain('only an assistant message carries "reasoning"');
  });
});
