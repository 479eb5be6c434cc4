/**
 * All keywords found in one pass over a text (Aho–Corasick automaton, fully expanded into a table), so
 * checking hundreds of keywords costs one table step per character rather than one search per keyword.
 */
export interface KeywordScanner {
  /** Sets `present[k] = 1` for every keyword `k` that occurs in `text`; other entries are left as they are. */
  scan(text: string, present: Uint8Array): void;
}

export function compileScanner(keywords: readonly string[]): KeywordScanner {
  // Characters that occur in some keyword get a class of their own; every other character is class 0.
  const classOf = new Uint16Array(65536);
  let classes = 1;
  for (const k of keywords) {
    for (let i = 0; i < k.length; i++) {
      const c = k.charCodeAt(i);
      if (classOf[c] === 0) classOf[c] = classes++;
    }
  }
  // Trie: children as a growing table of rows of `classes` entries (0 = none; the root is state 0).
  const goto: number[] = new Array(classes).fill(0);
  const outputs: number[][] = [[]];
  let states = 1;
  keywords.forEach((k, id) => {
    let s = 0;
    for (let i = 0; i < k.length; i++) {
      const cls = classOf[k.charCodeAt(i)] as number;
      let next = goto[s * classes + cls] as number;
      if (next === 0) {
        next = states++;
        for (let j = 0; j < classes; j++) goto.push(0);
        outputs.push([]);
        goto[s * classes + cls] = next;
      }
      s = next;
    }
    (outputs[s] as number[]).push(id);
  });
  // Breadth-first: failure links, inherited outputs, and missing transitions filled from the failure state.
  const fail = new Int32Array(states);
  const delta = states < 65536 ? new Uint16Array(states * classes) : new Int32Array(states * classes);
  const queue: number[] = [];
  for (let cls = 1; cls < classes; cls++) {
    const next = goto[cls] as number;
    delta[cls] = next;
    if (next !== 0) queue.push(next);
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q] as number;
    const f = fail[s] as number;
    (outputs[s] as number[]).push(...(outputs[f] as number[]));
    for (let cls = 1; cls < classes; cls++) {
      const next = goto[s * classes + cls] as number;
      if (next !== 0) {
        fail[next] = delta[f * classes + cls] as number;
        delta[s * classes + cls] = next;
        queue.push(next);
      } else delta[s * classes + cls] = delta[f * classes + cls] as number;
    }
  }
  const out = outputs.map((o) => Int32Array.from(new Set(o)));
  const hasOutput = Uint8Array.from(out, (o) => (o.length > 0 ? 1 : 0));
  return {
    scan(text: string, present: Uint8Array): void {
      let s = 0;
      for (let i = 0; i < text.length; i++) {
        s = delta[s * classes + (classOf[text.charCodeAt(i)] as number)] as number;
        if (hasOutput[s] === 1) for (const k of out[s] as Int32Array) present[k] = 1;
      }
    },
  };
}
