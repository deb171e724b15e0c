/** Prometheus text exposition, grouped by metric name as the format requires. */
export class Exposition {
  private metrics = new Map<string, { type: string; help: string; lines: string[] }>();

  add(name: string, type: string, help: string, labels: Record<string, string>, value: number | string) {
    const m = this.metrics.get(name) ?? { type, help, lines: [] };
    this.metrics.set(name, m);
    const l = Object.entries(labels)
      .map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`)
      .join(",");
    m.lines.push(`${name}{${l}} ${value}`);
  }

  text(): string {
    let s = "";
    for (const [name, m] of this.metrics) s += `# HELP ${name} ${m.help}\n# TYPE ${name} ${m.type}\n${m.lines.join("\n")}\n`;
    return s;
  }
}
