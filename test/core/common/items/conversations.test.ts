import { describe, expect, it } from 'vitest';
import { InputError } from '../../../../core/common/io/inputProblem';
import { parseJsonLines } from '../../../../core/common/io/jsonInput';
import { conversationsToItems, messagesFromRecords, type GapReason } from '../../../../core/common/items/conversations';
import { countWords } from '../../../../core/common/items/wordCount';

type Message = Record<string, unknown>;
const line = (m: Message): string => JSON.stringify(m);
const run = (messages: Message[]) =>
  conversationsToItems(messagesFromRecords(parseJsonLines(messages.map(line).join('\n'), 'c.jsonl'), 'c.jsonl'));

const user = (id: string, text: string | null = `question ${id}`, extra: Message = {}): Message => ({
  message_id: id,
  parent_id: null,
  role: 'prompter',
  text,
  message_tree_id: 't1',
  ...extra,
});
const reply = (id: string, parent: string | null, text: string | null = `answer ${id}`, extra: Message = {}): Message => ({
  message_id: id,
  parent_id: parent,
  role: 'assistant',
  text,
  message_tree_id: 't1',
  ...extra,
});

describe('conversation exports → items and a gap register', () => {
  it('makes one item per assistant reply to an opening user message; siblings share the context', () => {
    const result = run([
      user('u1', 'How do I reset my password?'),
      reply('a1', 'u1', 'Use the link on the login page.', { lang: 'en', rank: 0 }),
      reply('a2', 'u1', 'Figure it out.'),
    ]);
    expect(result.items).toEqual([
      {
        id: 'a1',
        text: 'Use the link on the login page.',
        context: 'How do I reset my password?',
        meta: { conversation_id: 't1', context_id: 'u1', fields: { lang: 'en', rank: 0 } },
      },
      { id: 'a2', text: 'Figure it out.', context: 'How do I reset my password?', meta: { conversation_id: 't1', context_id: 'u1' } },
    ]);
    expect(result).toMatchObject({
      messages: 3,
      conversations: 1,
      candidate_replies: 2,
      included_pairs: ['a1', 'a2'],
      gaps: [],
      distinct_user_contexts: 1,
    });
  });

  it.each<[string, Message[], GapReason, string | null]>([
    ['a reply without parent_id', [reply('a1', null)], 'missing_parent_id', null],
    ['a reply whose parent_id is absent', [{ message_id: 'a1', role: 'assistant', text: 'x', session_id: 's' }], 'missing_parent_id', null],
    ['a parent that is not in the file', [reply('a1', 'nope')], 'parent_not_found', 'nope'],
    ['a parent id used twice', [user('u1'), user('u1'), reply('a1', 'u1')], 'ambiguous_parent', 'u1'],
    ['a reply id used twice', [user('u1'), reply('a1', 'u1'), reply('a1', 'u1')], 'duplicate_message_id', 'a1'],
    [
      'a parent in another conversation',
      [user('u1', 'q', { message_tree_id: 't2' }), reply('a1', 'u1')],
      'parent_in_other_conversation',
      'u1',
    ],
    ['an assistant parent', [user('u0'), reply('a0', 'u0'), reply('a1', 'a0')], 'parent_not_user', 'a0'],
    [
      'a system parent',
      [
        { message_id: 's1', parent_id: null, role: 'system', text: 'be nice', session_id: 't1' },
        { ...reply('a1', 's1'), message_tree_id: undefined, session_id: 't1' },
      ],
      'parent_is_system_or_tool',
      's1',
    ],
    [
      'a tool parent',
      [{ message_id: 'x1', parent_id: null, role: 'tool', text: '{}', message_tree_id: 't1' }, reply('a1', 'x1')],
      'parent_is_system_or_tool',
      'x1',
    ],
    [
      'a user message after a system prompt',
      [
        { message_id: 's1', parent_id: null, role: 'system', text: 'sys', message_tree_id: 't1' },
        user('u1', 'q', { parent_id: 's1' }),
        reply('a1', 'u1'),
      ],
      'system_or_tool_in_context',
      's1',
    ],
    [
      'a second-turn reply (multi-turn context)',
      [user('u1'), reply('a0', 'u1'), user('u2', 'more', { parent_id: 'a0' }), reply('a1', 'u2')],
      'multi_turn_context',
      'a0',
    ],
    ['a reply with null text', [user('u1'), reply('a1', 'u1', null)], 'reply_text_missing', null],
    ['a reply with blank text', [user('u1'), reply('a1', 'u1', '  \n')], 'reply_text_empty', null],
    ['a user message without text', [user('u1', null), reply('a1', 'u1')], 'context_text_missing', 'u1'],
    ['a user message with empty text', [user('u1', ''), reply('a1', 'u1')], 'context_text_empty', 'u1'],
    ['a reply id with a control character', [user('u1'), reply('a\u0001', 'u1')], 'invalid_reply_id', 'a\u0001'],
  ])('excludes %s with a reason and never invents text', (_name, messages, reason, reference) => {
    const result = run(messages);
    const gap = result.gaps.find((g) => g.reason === reason);
    expect(gap, JSON.stringify(result.gaps)).toBeDefined();
    expect(gap!.reference).toBe(reference);
    expect(result.included_pairs).not.toContain(gap!.reply_id);
    expect(result.items.every((i) => i.text.trim() !== '' && i.context!.trim() !== '')).toBe(true);
  });

  it('keeps candidates = included + gaps and counts words as the issue defines them', () => {
    const messages = [
      user('u1', 'How do I reset my password?'), // 6
      reply('a1', 'u1', "Click 'Forgot password' on the login page."), // 7
      reply('a2', 'u1', 'Just figure it out.'), // 4
      user('u2', 'Thanks!', { parent_id: 'a1' }), // 1
      reply('a3', 'u2', "You're welcome."), // 3 (You, re, welcome)
      reply('a4', 'missing', 'Orphan.', { message_tree_id: 't2' }), // 1
      reply('a5', 'u1', null), // no text: no estimate
    ];
    const r = run(messages);
    expect(r.candidate_replies).toBe(r.included_pairs.length + r.gaps.length);
    expect(r.included_pairs).toEqual(['a1', 'a2']);
    expect(r.conversations).toBe(2);
    expect(r.words_all_messages).toBe(6 + 7 + 4 + 1 + 3 + 1);
    expect(r.messages_without_text).toBe(1);
    expect(r.words_eligible_messages).toBe(6 + 7 + 4);
    expect(r.words_pairs).toBe(6 + 7 + (6 + 4));
    expect(r.distinct_user_contexts).toBe(1);
  });

  it('counts words with Unicode word characters (\\b\\w+\\b as Python counts them)', () => {
    expect(countWords('Das ist höflich, oder? 42 mal_so')).toBe(6);
    expect(countWords('')).toBe(0);
    expect(countWords('... !!!')).toBe(0);
  });

  it.each([
    ['no conversation id', { message_id: 'a', role: 'user', text: 'x' }, 'session_id', 'session_id" or "message_tree_id'],
    ['an unknown role', { message_id: 'a', role: 'bot', text: 'x', session_id: 's' }, 'role', 'must be one of'],
    ['a numeric text', { message_id: 'a', role: 'user', text: 5, session_id: 's' }, 'text', 'must be string or null'],
    ['an empty message id', { message_id: '', role: 'user', text: 'x', session_id: 's' }, 'message_id', 'fewer than 1'],
  ])('rejects a message with %s at the schema stage, naming line and field', (_name, bad, field, fragment) => {
    try {
      run([user('u1'), bad]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      const [p] = (e as InputError).problems;
      expect(p).toMatchObject({ file: 'c.jsonl', line: 2, field, stage: 'schema' });
      expect(p!.message).toContain(fragment);
    }
  });
});
