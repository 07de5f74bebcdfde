import { readFileSync } from 'node:fs';

/*
 * Counts the objects of a V8 heap snapshot (`.heapsnapshot`, as `--heapsnapshot-signal` or
 * `v8.writeHeapSnapshot` write it) by kind: promises, closures (by function name), and every other
 * object by constructor. Two snapshots of the same process, before and while N requests wait,
 * give what each waiting request keeps alive (`diffCounts`). Used by `bench/run.ts` (BENCH_HEAP=1)
 * and alone: `npx tsx bench/heap-count.ts before.heapsnapshot after.heapsnapshot [requests]`.
 */

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Objects by `kind name` (kind: V8's node type, e.g. `object Promise`, `closure send`). */
export function countObjects(file: string): Map<string, number> {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const counts = new Map<string, number>();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt] as number] ?? '?';
    if (type !== 'object' && type !== 'closure') continue;
    const key = `${type} ${s.strings[s.nodes[i + nameAt] as number] ?? '?'}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export interface HeapDiff {
  promises: number;
  closures: number;
  objects: number;
  /** The kinds that grew most, per request. */
  top: { key: string; perRequest: number }[];
}

/** What grew between two snapshots, per request (`requests` of them were added in between). */
export function diffCounts(
  before: Map<string, number>,
  after: Map<string, number>,
  requests: number,
): HeapDiff {
  const grown: { key: string; perRequest: number }[] = [];
  let promises = 0;
  let closures = 0;
  let objects = 0;
  for (const [key, n] of after) {
    const d = n - (before.get(key) ?? 0);
    if (d <= 0) continue;
    if (key === 'object Promise') promises += d;
    else if (key.startsWith('closure ')) closures += d;
    else objects += d;
    grown.push({ key, perRequest: d / requests });
  }
  grown.sort((a, b) => b.perRequest - a.perRequest);
  return {
    promises: promises / requests,
    closures: closures / requests,
    objects: objects / requests,
    top: grown.slice(0, 25),
  };
}

export function printDiff(d: HeapDiff): void {
  console.log(
    `retained per request: ${d.promises.toFixed(1)} promises, ${d.closures.toFixed(1)} closures, ${d.objects.toFixed(1)} other objects`,
  );
  for (const t of d.top) console.log(`  ${t.perRequest.toFixed(2)}  ${t.key}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [before, after, requests] = process.argv.slice(2);
  if (!before || !after)
    throw new Error('usage: heap-count.ts before.heapsnapshot after.heapsnapshot [requests]');
  printDiff(diffCounts(countObjects(before), countObjects(after), Number(requests ?? 1)));
}
