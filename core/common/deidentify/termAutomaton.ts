/**
 * An Aho–Corasick automaton over the folded keys of a list's terms: one pass over a folded text finds every key
 * that occurs in it, whatever the number of terms (100 000 terms are one trie, not a regular expression of 100 000
 * alternatives). Keys and text are UTF-16 code units of textFold's canonical form.
 *
 * Layout, chosen so a list of 100 000 terms (about 800 000 nodes) builds without an object per node: every field is a
 * plain number array indexed by node. A node's children are a linked list (first child, next sibling; most nodes
 * have one), turned into a Map once a node has many (the root); failure links, the key ending at each node and the
 * "dictionary" link (the nearest node along the failure chain where a key ends).
 */
export interface AutomatonMatch {
  /** which key (its index in the constructor's list) */
  key: number;
  /** [start, end) in the searched text */
  start: number;
  end: number;
}

const ROOT = 0;
/** a node with more children than this finds them through a Map instead of a string search */
const MANY_CHILDREN = 16;

export class TermAutomaton {
  /** per node: the code unit on the edge into it */
  private readonly unit: number[] = [-1];
  private readonly firstChild: number[] = [-1];
  private readonly nextSibling: number[] = [-1];
  private readonly childCount: number[] = [0];
  /** per node with many children: code unit → child */
  private readonly childMaps = new Map<number, Map<number, number>>();
  private readonly fail: number[] = [ROOT];
  /** per node: the index of the key ending here, or -1 */
  private readonly keyAt: number[] = [-1];
  /** per node: the nearest node on its failure chain (itself excluded) where a key ends, or -1 */
  private readonly outputLink: number[] = [-1];
  private readonly keyLength: number[] = [];

  /** `keys[i]` is found as key i; an empty key is never found; a key listed twice is found as its first index. */
  constructor(keys: readonly string[]) {
    keys.forEach((key, index) => {
      this.keyLength.push(key.length);
      if (key.length === 0) return;
      let node = ROOT;
      for (let i = 0; i < key.length; i++) node = this.child(node, key.charCodeAt(i));
      if (this.keyAt[node] === -1) this.keyAt[node] = index;
    });
    this.link();
  }

  private edge(node: number, unit: number): number {
    const map = this.childMaps.get(node);
    if (map !== undefined) return map.get(unit) ?? -1;
    for (let c = this.firstChild[node]!; c !== -1; c = this.nextSibling[c]!) if (this.unit[c] === unit) return c;
    return -1;
  }

  private child(node: number, unit: number): number {
    const existing = this.edge(node, unit);
    if (existing !== -1) return existing;
    const next = this.unit.length;
    this.unit.push(unit);
    this.firstChild.push(-1);
    this.nextSibling.push(this.firstChild[node]!);
    this.childCount.push(0);
    this.fail.push(ROOT);
    this.keyAt.push(-1);
    this.outputLink.push(-1);
    this.firstChild[node] = next;
    const count = ++this.childCount[node]!;
    const map = this.childMaps.get(node);
    if (map !== undefined) map.set(unit, next);
    else if (count > MANY_CHILDREN) {
      const all = new Map<number, number>();
      for (let c = this.firstChild[node]!; c !== -1; c = this.nextSibling[c]!) all.set(this.unit[c]!, c);
      this.childMaps.set(node, all);
    }
    return next;
  }

  /** The state after reading `unit` in state `node`, following failure links where there is no edge. */
  private step(node: number, unit: number): number {
    for (;;) {
      const next = this.edge(node, unit);
      if (next !== -1) return next;
      if (node === ROOT) return ROOT;
      node = this.fail[node]!;
    }
  }

  /** Failure and output links, breadth first: a node's links depend only on shallower nodes. */
  private link(): void {
    const queue: number[] = [];
    for (let c = this.firstChild[ROOT]!; c !== -1; c = this.nextSibling[c]!) queue.push(c);
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (let next = this.firstChild[node]!; next !== -1; next = this.nextSibling[next]!) {
        // the longest proper suffix of next's path that is also a path: shallower than next, so already linked
        const failNode = this.step(this.fail[node]!, this.unit[next]!);
        this.fail[next] = failNode;
        this.outputLink[next] = this.keyAt[failNode] !== -1 ? failNode : this.outputLink[failNode]!;
        queue.push(next);
      }
    }
  }

  /** Every occurrence of every key in `text`, overlapping ones included, in order of their ends. */
  findAll(text: string): AutomatonMatch[] {
    const out: AutomatonMatch[] = [];
    let node = ROOT;
    for (let i = 0; i < text.length; i++) {
      node = this.step(node, text.charCodeAt(i));
      for (let n = this.keyAt[node] !== -1 ? node : this.outputLink[node]!; n !== -1; n = this.outputLink[n]!) {
        const key = this.keyAt[n]!;
        out.push({ key, start: i + 1 - this.keyLength[key]!, end: i + 1 });
      }
    }
    return out;
  }
}
