import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import { InputError, type InputProblem } from '../io/inputProblem';
import type { LocatedValue } from '../io/jsonInput';
import { schemaProblems } from '../io/schemaProblems';
import { LabelMatcher } from '../parser/labelMatch';
import { resolveModelLabel, type LabelSchemaContext } from '../reasoning/modelLabel';
import { itemIdKey, itemIdProblem } from '../names/nameRules';
import type { Item } from './item';
import { countWords } from './wordCount';

/** Roles of a conversation export; "prompter" is OpenAssistant's name for the user. */
export type MessageRole = 'user' | 'prompter' | 'assistant' | 'system' | 'tool';

/** JSON Schema (Draft 2020-12) of one message line. Missing or empty texts are not errors here: they become gaps. */
export const conversationMessageJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aloud.local/schemas/conversation-message.json',
  title: 'One message of a conversation export',
  type: 'object',
  required: ['message_id', 'role'],
  properties: {
    message_id: { type: 'string', minLength: 1 },
    parent_id: { type: ['string', 'null'] },
    role: { enum: ['user', 'prompter', 'assistant', 'system', 'tool'] },
    text: { type: ['string', 'null'] },
    session_id: { type: 'string', minLength: 1 },
    message_tree_id: { type: 'string', minLength: 1 },
    /** the assistant turn's reasoning (chain of thought); `reasoning_content` is the name some chat APIs use */
    reasoning: { type: ['string', 'null'] },
    reasoning_content: { type: ['string', 'null'] },
    /** the model's final answer about its own reply, when the export has one (resolved against the schema) */
    model_label: { type: 'string', minLength: 1, pattern: '\\S' },
  },
} as const;

const KNOWN_FIELDS = new Set(Object.keys(conversationMessageJsonSchema.properties));

const ajv = sharedAjv({ allErrors: true, strict: true, allowUnionTypes: true });
const validateMessage = compileOnFirstUse(() => ajv.compile(conversationMessageJsonSchema));

export interface ConversationMessage {
  line: number;
  message_id: string;
  parent_id: string | null;
  role: MessageRole;
  text: string | null;
  /** session_id, else message_tree_id */
  conversation_id: string;
  /** the assistant turn's reasoning, null when absent or blank */
  reasoning: string | null;
  /** the model's final answer as a schema label name, null when absent */
  model_label: string | null;
  /** fields beyond the known ones, kept as given */
  extra: Record<string, unknown>;
}

export type GapReason =
  | 'duplicate_message_id'
  | 'invalid_reply_id'
  | 'missing_parent_id'
  | 'parent_not_found'
  | 'ambiguous_parent'
  | 'parent_in_other_conversation'
  | 'parent_not_user'
  | 'parent_is_system_or_tool'
  | 'system_or_tool_in_context'
  | 'multi_turn_context'
  | 'reply_text_missing'
  | 'reply_text_empty'
  | 'context_text_missing'
  | 'context_text_empty';

/** A candidate reply that was not imported, and why. Nothing is invented to fill it. */
export interface ConversationGap {
  reply_id: string;
  /** the missing or invalid reference (a message id), or null when the reference field itself is absent */
  reference: string | null;
  reason: GapReason;
  message: string;
  /** line of the reply in the source file */
  line: number;
}

export interface ConversationImport {
  items: Item[];
  messages: number;
  conversations: number;
  candidate_replies: number;
  included_pairs: string[];
  gaps: ConversationGap[];
  distinct_user_contexts: number;
  /** messages whose text is absent or null: they get no word estimate */
  messages_without_text: number;
  words_all_messages: number;
  words_eligible_messages: number;
  words_pairs: number;
}

/**
 * Schema stage for message records (and the rules on reasoning fields); every problem of the file is collected
 * before rejecting. With the project's label schema a `model_label` is resolved to a label name.
 */
export function messagesFromRecords(records: readonly LocatedValue[], file: string, schema?: LabelSchemaContext): ConversationMessage[] {
  const problems: InputProblem[] = [];
  const messages: ConversationMessage[] = [];
  const matcher = schema ? new LabelMatcher(schema.labels, schema.languages) : null;
  for (const record of records) {
    if (!validateMessage(record.value)) {
      problems.push(...schemaProblems(validateMessage.errors, file, record));
      continue;
    }
    const v = record.value as unknown as Record<string, unknown>;
    const conversation = (v.session_id ?? v.message_tree_id) as string | undefined;
    if (conversation === undefined) {
      problems.push({
        file,
        line: record.line,
        field: record.pointer === '' ? 'session_id' : `[${record.pointer.slice(1)}].session_id`,
        stage: 'schema',
        message: 'a message needs "session_id" or "message_tree_id" (the conversation it belongs to)',
      });
      continue;
    }
    const field = (name: string): string => (record.pointer === '' ? name : `[${record.pointer.slice(1)}].${name}`);
    const given = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
    const reasoning = given(v.reasoning);
    const reasoningContent = given(v.reasoning_content);
    let modelLabel = (v.model_label as string | undefined) ?? null;
    const rule = (name: string, message: string): void => {
      problems.push({ file, line: record.line, field: field(name), stage: 'rule', message });
    };
    if (reasoning !== null && reasoningContent !== null)
      rule('reasoning_content', 'give the reasoning as "reasoning" or as "reasoning_content", not both');
    for (const name of ['reasoning', 'reasoning_content', 'model_label'] as const) {
      if (v.role !== 'assistant' && given(v[name]) !== null)
        rule(name, `only an assistant message carries "${name}" (this one is ${String(v.role)})`);
    }
    if (modelLabel !== null && schema && matcher) {
      const resolved = resolveModelLabel(modelLabel, schema, matcher);
      if (!('problem' in resolved)) modelLabel = resolved.label;
      else if (schema.unresolved !== 'keep') rule('model_label', resolved.problem);
    }
    const extra: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(v)) {
      if (!KNOWN_FIELDS.has(key)) Object.defineProperty(extra, key, { value, enumerable: true, writable: true, configurable: true });
    }
    messages.push({
      line: record.line,
      message_id: v.message_id as string,
      parent_id: (v.parent_id as string | null | undefined) ?? null,
      role: v.role as MessageRole,
      text: (v.text as string | null | undefined) ?? null,
      conversation_id: conversation,
      reasoning: reasoning ?? reasoningContent,
      model_label: modelLabel,
      extra,
    });
  }
  if (problems.length > 0) throw new InputError(problems);
  return messages;
}

const isUser = (role: MessageRole): boolean => role === 'user' || role === 'prompter';
const isSystemOrTool = (role: MessageRole): boolean => role === 'system' || role === 'tool';

/**
 * Each assistant reply becomes one item with its direct user parent as context, when: the reply's id is unique,
 * its parent exists once, is a user message of the same conversation and opens the conversation (multi-turn and
 * system/tool context have no rule yet), and both texts are present and not blank. Otherwise the reply is a gap.
 * Ids are compared as they read (itemIdKey: NFC, invisible characters removed) and a reply's id becomes the item's
 * id in NFC, so one id in two Unicode forms is a duplicate, not two items.
 */
export function conversationsToItems(messages: readonly ConversationMessage[]): ConversationImport {
  const byId = new Map<string, ConversationMessage[]>();
  for (const m of messages) {
    const key = itemIdKey(m.message_id);
    const list = byId.get(key);
    if (list) list.push(m);
    else byId.set(key, [m]);
  }
  const items: Item[] = [];
  const gaps: ConversationGap[] = [];
  const contexts = new Set<string>();
  let wordsPairs = 0;
  let candidates = 0;
  for (const reply of messages) {
    if (reply.role !== 'assistant') continue;
    candidates++;
    const gap = replyGap(reply, byId);
    if (gap) {
      gaps.push({ reply_id: reply.message_id, ...gap, line: reply.line });
      continue;
    }
    const parent = byId.get(itemIdKey(reply.parent_id!))![0]!;
    contexts.add(parent.message_id);
    wordsPairs += countWords(parent.text!) + countWords(reply.text!);
    items.push({
      id: reply.message_id.normalize('NFC'),
      text: reply.text!,
      context: parent.text!,
      ...(reply.reasoning !== null ? { model_reasoning: reply.reasoning } : {}),
      ...(reply.model_label !== null ? { model_label: reply.model_label } : {}),
      meta: {
        conversation_id: reply.conversation_id,
        context_id: parent.message_id,
        ...(Object.keys(reply.extra).length > 0 ? { fields: reply.extra } : {}),
      },
    });
  }
  let wordsAll = 0;
  let withoutText = 0;
  for (const m of messages) {
    if (m.text === null) withoutText++;
    else wordsAll += countWords(m.text);
  }
  let wordsEligible = 0;
  for (const id of contexts) wordsEligible += countWords(byId.get(itemIdKey(id))![0]!.text!);
  for (const item of items) wordsEligible += countWords(item.text);
  return {
    items,
    messages: messages.length,
    conversations: new Set(messages.map((m) => m.conversation_id)).size,
    candidate_replies: candidates,
    included_pairs: items.map((i) => i.id),
    gaps,
    distinct_user_contexts: contexts.size,
    messages_without_text: withoutText,
    words_all_messages: wordsAll,
    words_eligible_messages: wordsEligible,
    words_pairs: wordsPairs,
  };
}

type GapCause = Pick<ConversationGap, 'reference' | 'reason' | 'message'>;

function replyGap(reply: ConversationMessage, byId: ReadonlyMap<string, ConversationMessage[]>): GapCause | null {
  const own = byId.get(itemIdKey(reply.message_id))!;
  if (own.length > 1) {
    const forms =
      new Set(own.map((m) => m.message_id)).size > 1 ? ' (the same id once Unicode forms and invisible characters are set aside)' : '';
    return {
      reference: reply.message_id,
      reason: 'duplicate_message_id',
      message: `message id is used by ${own.length} messages (lines ${own.map((m) => m.line).join(', ')})${forms}`,
    };
  }
  const idProblem = /[\u0000-\u001f\u007f]/.test(reply.message_id)
    ? 'it contains a control character'
    : itemIdProblem(reply.message_id.normalize('NFC'));
  if (idProblem !== null) {
    return { reference: reply.message_id, reason: 'invalid_reply_id', message: `the reply id cannot be an item id: ${idProblem}` };
  }
  if (reply.parent_id === null)
    return { reference: null, reason: 'missing_parent_id', message: 'the reply has no parent_id, so it has no user context' };
  const parents = byId.get(itemIdKey(reply.parent_id));
  if (!parents)
    return { reference: reply.parent_id, reason: 'parent_not_found', message: `parent message "${reply.parent_id}" is not in the file` };
  if (parents.length > 1) {
    return {
      reference: reply.parent_id,
      reason: 'ambiguous_parent',
      message: `parent id "${reply.parent_id}" is used by ${parents.length} messages (lines ${parents.map((m) => m.line).join(', ')})`,
    };
  }
  const parent = parents[0]!;
  if (parent.conversation_id !== reply.conversation_id) {
    return {
      reference: reply.parent_id,
      reason: 'parent_in_other_conversation',
      message: `parent is in conversation "${parent.conversation_id}", the reply in "${reply.conversation_id}"`,
    };
  }
  if (isSystemOrTool(parent.role)) {
    return {
      reference: reply.parent_id,
      reason: 'parent_is_system_or_tool',
      message: `parent is a ${parent.role} message; replies to ${parent.role} messages have no rule yet`,
    };
  }
  if (!isUser(parent.role))
    return { reference: reply.parent_id, reason: 'parent_not_user', message: `parent is an ${parent.role} message, not a user message` };
  if (parent.parent_id !== null) {
    const earlier = byId.get(itemIdKey(parent.parent_id))?.[0];
    if (earlier && isSystemOrTool(earlier.role)) {
      return {
        reference: parent.parent_id,
        reason: 'system_or_tool_in_context',
        message: `the user message follows a ${earlier.role} message; system/tool context has no rule yet`,
      };
    }
    return {
      reference: parent.parent_id,
      reason: 'multi_turn_context',
      message: 'the user message continues an earlier turn; multi-turn context has no rule yet',
    };
  }
  if (reply.text === null) return { reference: null, reason: 'reply_text_missing', message: 'the reply has no text' };
  if (reply.text.trim() === '') return { reference: null, reason: 'reply_text_empty', message: 'the reply text is empty' };
  if (parent.text === null)
    return { reference: parent.message_id, reason: 'context_text_missing', message: 'the user message has no text' };
  if (parent.text.trim() === '')
    return { reference: parent.message_id, reason: 'context_text_empty', message: 'the user message text is empty' };
  return null;
}
