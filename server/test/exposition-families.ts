/** A text exposition read as families: type, HELP, the label names its samples carry and a histogram's buckets. */
export interface Family {
  type: string;
  help: string;
  labels: Set<string>;
  buckets: string[];
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

const SUFFIXES = ["_bucket", "_count", "_sum"];

export function families(text: string): Map<string, Family> {
  const out = new Map<string, Family>();
  const family = (name: string) => {
    let f = out.get(name);
    if (!f) out.set(name, (f = { type: "untyped", help: "", labels: new Set(), buckets: [], samples: [] }));
    return f;
  };
  for (const line of text.split("\n")) {
    const help = /^# HELP (\S+) (.*)$/.exec(line);
    if (help) family(help[1]!).help = help[2]!;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) family(type[1]!).type = type[2]!;
    if (line.startsWith("#") || !line.trim()) continue;
    const m = /^([^{\s]+)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const name = m[1]!;
    const labels = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1]!, x[2]!]));
    const base = out.has(name) ? name : (SUFFIXES.map((s) => (name.endsWith(s) ? name.slice(0, -s.length) : "")).find((b) => b && out.has(b)) ?? name);
    const f = family(base);
    f.samples.push({ name, labels, value: Number(m[3]) });
    for (const k of Object.keys(labels)) if (k !== "le") f.labels.add(k);
    if (labels.le !== undefined && !f.buckets.includes(labels.le)) f.buckets.push(labels.le);
  }
  // prometheus_client's 0.0.4 text prints each counter's and histogram's creation time as a gauge family of its own.
  for (const name of [...out.keys()]) if (name.endsWith("_created")) out.delete(name);
  return out;
}
