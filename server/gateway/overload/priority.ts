/**
 * Priority classes of the gateway's overload queue (scheduler.ts), highest first. A call's class
 * is its key's, else its tenant's plan's, and never above the plan's (the plan is what the tenant
 * pays for); the `x-kule-priority` header may lower it on any key, and raise it — up to the
 * plan's class — on a key allowed to.
 */
export const PRIORITIES = ["interactive", "standard", "batch"] as const;
export type Priority = (typeof PRIORITIES)[number];

export const PRIORITY_HEADER = "x-kule-priority";

const isPriority = (v: unknown): v is Priority => typeof v === "string" && (PRIORITIES as readonly string[]).includes(v);
const rank = (p: Priority) => PRIORITIES.indexOf(p);

/** The lower of two classes: a key's class held to its plan's. */
export const lowerOf = (a: Priority, b: Priority): Priority => (rank(a) >= rank(b) ? a : b);

/** The call's class: the header's when it lowers the key's, or when the key `mayRaise` and it stays within the plan's; else the key's. */
export function callPriority(key: Priority, header: string | string[] | undefined, mayRaise: boolean, plan: Priority): Priority {
  if (!isPriority(header)) return key;
  if (rank(header) >= rank(key)) return header;
  return mayRaise ? lowerOf(header, plan) : key;
}

/**
 * How long a call of each class may wait for admission, from the endpoint's TTFT SLO (2 s when it
 * has none): an interactive call its SLO less the engine's own time to a first token, which the
 * gateway sees as `engineTtftMs`; standard work four SLOs; batch a minute, or thirty SLOs.
 */
export function queueBudgetMs(priority: Priority, sloTtftMs: number | null, engineTtftMs: number): number {
  const slo = sloTtftMs ?? 2000;
  if (priority === "interactive") return Math.max(slo * 0.2, slo - engineTtftMs);
  if (priority === "standard") return 4 * slo;
  return Math.max(60_000, 30 * slo);
}
