import { normalizeForMatching } from './matchText';

interface TrieNode<T> {
  next: Map<string, TrieNode<T>>;
  value: T | undefined;
}

/** Phrases as sequences of normalised words, each with a value; finds the longest phrase starting at a word. */
export class WordTrie<T> {
  private readonly root: TrieNode<T> = { next: new Map(), value: undefined };

  /** Adds a phrase; a phrase already present keeps its first value. */
  insert(words: readonly string[], value: T): void {
    let node = this.root;
    for (const word of words) {
      let child = node.next.get(word);
      if (!child) {
        child = { next: new Map(), value: undefined };
        node.next.set(word, child);
      }
      node = child;
    }
    node.value ??= value;
  }

  /** Adds each text, normalised as a transcript is (texts with no words are left out). */
  insertTexts(texts: Iterable<string>, value: T): this {
    for (const text of texts) {
      const normalised = normalizeForMatching(text);
      if (normalised !== '') this.insert(normalised.split(' '), value);
    }
    return this;
  }

  /** Whether some phrase starts with this word. */
  startsWith(word: string): boolean {
    return this.root.next.has(word);
  }

  /** The longest phrase at words[at…] (optionally only while `within(j)` holds for each word j after the first). */
  longest(words: readonly string[], at: number, within?: (j: number) => boolean): { end: number; value: T } | null {
    let node: TrieNode<T> | undefined = this.root;
    let found: { end: number; value: T } | null = null;
    for (let j = at; j < words.length; j++) {
      if (j > at && within && !within(j)) break;
      node = node.next.get(words[j]!);
      if (!node) break;
      if (node.value !== undefined) found = { end: j + 1, value: node.value };
    }
    return found;
  }

  /** Every phrase at words[at…], longest first. */
  all(words: readonly string[], at: number): Array<{ end: number; value: T }> {
    const found: Array<{ end: number; value: T }> = [];
    let node: TrieNode<T> | undefined = this.root;
    for (let j = at; j < words.length; j++) {
      node = node.next.get(words[j]!);
      if (!node) break;
      if (node.value !== undefined) found.push({ end: j + 1, value: node.value });
    }
    return found.reverse();
  }
}

/** A set of phrases (the value is only `true`). */
export function phraseSet(texts: Iterable<string>): WordTrie<true> {
  return new WordTrie<true>().insertTexts(texts, true);
}
