import type { ReplicaConfig, VersionConfig } from "./config.ts";
import { sentTo, type GatewayCall } from "./call.ts";
import type { ReplicaHealth } from "./replica-health.ts";
import { pickReplica, usableReplicas } from "./routing.ts";

/** Why a call went to its replica: its prompt's prefix hashed there, or that replica had the fewest calls outstanding. */
export type RouteReason = "affinity" | "load";

/** How an endpoint picks among a version's replicas (the endpoint's `replicaChoice`). */
export type ReplicaChoice = "least_outstanding" | "prefix_aware";

/**
 * Characters of the prompt the prefix hash covers. vLLM caches whole blocks of 16 tokens; 256
 * characters are about the first 4 blocks, enough to tell apart system prompts and few-shot
 * headers (what repeats across calls), short enough to hash for nothing on the hot path.
 */
export const PREFIX_CHARS = 256;

/**
 * How far above the mean a replica's outstanding calls may go before its prefixes spill to the
 * next replica in their order: consistent hashing with bounded loads (Mirrokni, Thorup and
 * Zadimoghaddam 2016). c = 2, measured (bench/routing.ts, 4 replicas, 20 system prompts, 33
 * calls/s): mean TTFT 73.5 ms at 1.25 (KubeAI's default), 55.9 at 1.5, 49.8 at 2 — with 20
 * prefixes on 4 replicas the hash gives one replica 7 and another 3, so a tight bound spills
 * calls to caches that lack their prefix, while queues stayed empty at 2.
 */
export const LOAD_FACTOR = 2;

const FNV_OFFSET = 2166136261;
const FNV_PRIME = 16777619;

function fnvString(h: number, s: string, limit: number): number {
  const n = Math.min(s.length, limit);
  for (let i = 0; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * A 32-bit hash of the prompt's first PREFIX_CHARS characters: the chat messages' text in order
 * (roles included, as the chat template renders them), the completion prompt, or a KServe v2
 * call's first BYTES input (Triton's vLLM backend takes its prompt as `text_input`); null when the
 * body has no prompt (embeddings, numeric tensors), which are then routed by load.
 */
export function prefixHash(body: Record<string, unknown>): number | null {
  let h = FNV_OFFSET;
  let left = PREFIX_CHARS;
  const take = (s: string) => {
    h = fnvString(h, s, left);
    left -= Math.min(left, s.length);
  };
  const messages = body.messages;
  if (Array.isArray(messages)) {
    for (const m of messages as { role?: unknown; content?: unknown }[]) {
      if (left <= 0) break;
      if (typeof m?.role === "string") take(m.role);
      if (typeof m?.content === "string") take(m.content);
      else if (Array.isArray(m?.content)) for (const part of m.content as { text?: unknown }[]) if (typeof part?.text === "string" && left > 0) take(part.text);
    }
  } else if (typeof body.prompt === "string") take(body.prompt);
  else if (Array.isArray(body.prompt) && typeof body.prompt[0] === "string") take(body.prompt[0]);
  else if (Array.isArray(body.inputs)) {
    const text = (body.inputs as { datatype?: unknown; data?: unknown }[]).find((i) => i?.datatype === "BYTES" && Array.isArray(i.data) && typeof i.data[0] === "string");
    if (text) take((text.data as string[])[0]!);
  }
  return left === PREFIX_CHARS ? null : h >>> 0;
}

/** The rank of `replica` for a prefix (rendezvous hashing): every gateway process agrees on it without sharing state. */
function score(prefix: number, replicaId: string): number {
  let h = fnvString(Math.imul(FNV_OFFSET ^ prefix, FNV_PRIME), replicaId, 64);
  // murmur3's finaliser: FNV's low bits alone spread poorly over a handful of replicas.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Prefix-aware choice: the replicas ranked by rendezvous hash of the prompt's prefix, the first
 * whose outstanding calls stay within LOAD_FACTOR × the mean (counting this call) taken. The top
 * ranked one is `affinity`; a spill past a busy one, or no prefix at all, is `load` (then least
 * outstanding). Replicas cooling down or tried already are `excluded`.
 */
export function pickByPrefix(
  replicas: ReplicaConfig[],
  prefix: number | null,
  outstanding: (id: string) => number,
  excluded: (id: string) => boolean,
): { replica: ReplicaConfig; reason: RouteReason } | null {
  let total = 1;
  let n = 0;
  let top: ReplicaConfig | null = null;
  let topScore = -1;
  for (const r of replicas) {
    if (excluded(r.id)) continue;
    n++;
    total += outstanding(r.id);
    if (prefix !== null) {
      const s = score(prefix, r.id);
      if (s > topScore) [top, topScore] = [r, s];
    }
  }
  if (n === 0) return null;
  const bound = Math.ceil((LOAD_FACTOR * total) / n);
  if (top && outstanding(top.id) + 1 <= bound) return { replica: top, reason: "affinity" };
  if (top) {
    // Spill in rank order, so a busy replica's prefixes land on one other replica and warm its cache too.
    const ranked = replicas.filter((r) => !excluded(r.id)).sort((a, b) => score(prefix!, b.id) - score(prefix!, a.id));
    for (const r of ranked) if (outstanding(r.id) + 1 <= bound) return { replica: r, reason: "load" };
  }
  let best: ReplicaConfig | null = null;
  for (const r of replicas) if (!excluded(r.id) && (!best || outstanding(r.id) < outstanding(best.id))) best = r;
  return { replica: best!, reason: "load" };
}

/** The endpoint's way of choosing among `replicas`: by prefix when it is prefix-aware, else fewest outstanding calls. */
export function chooseReplica(
  choice: ReplicaChoice,
  replicas: ReplicaConfig[],
  prefix: number | null,
  outstanding: (id: string) => number,
  excluded: (id: string) => boolean,
): { replica: ReplicaConfig; reason: RouteReason } | null {
  if (choice === "prefix_aware") return pickByPrefix(replicas, prefix, outstanding, excluded);
  const replica = pickReplica(replicas, outstanding, excluded);
  return replica && { replica, reason: "load" };
}

/**
 * The replica for a call's next attempt, by its endpoint's replica choice among the version's
 * replicas the caller may use (KVKK) and not `tried` or cooling down: the one place the HTTP and
 * gRPC paths choose, so both honour the endpoint's setting. Records the replica and the reason on
 * the call.
 */
export function replicaForCall(health: ReplicaHealth, call: GatewayCall, version: VersionConfig, prefix: number | null, tried: Set<string>): ReplicaConfig | null {
  const e = call.endpoint!;
  const chosen = chooseReplica(e.replicaChoice, usableReplicas(version, call.tenant!, e), prefix, health.load, (id) => tried.has(id) || health.coolingDown(id));
  if (!chosen) return null;
  tried.add(chosen.replica.id);
  // A replica tried before this one (a 503, a refused connection, a failed endpoint) received the call too.
  if (call.replica) sentTo(call, call.replica.region);
  call.replica = chosen.replica;
  call.routeReason = chosen.reason;
  return chosen.replica;
}

/** The prompt-prefix hash a call is routed by: only for a prefix-aware endpoint (the others never read it). */
export const callPrefix = (call: GatewayCall, body: Record<string, unknown>) => (call.endpoint!.replicaChoice === "prefix_aware" ? prefixHash(body) : null);
