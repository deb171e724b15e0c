import type { IPod } from "kubernetes-models/v1/Pod";
import type { KubeObject, OwnerReference } from "../kube-object.ts";

/** The owner reference a controller sets on what it creates; GC and adoption follow it. */
export function controllerRef(owner: KubeObject): OwnerReference {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

export function controlledBy(obj: KubeObject | { metadata?: KubeObject["metadata"] }, owner: KubeObject): boolean {
  return (obj.metadata?.ownerReferences ?? []).some((r) => r.controller && r.uid === owner.metadata.uid);
}

export function controllerOf(obj: { metadata?: KubeObject["metadata"] }): OwnerReference | undefined {
  return (obj.metadata?.ownerReferences ?? []).find((r) => r.controller);
}

export function isPodReady(pod: IPod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");
}

/** Pods a ReplicaSet counts: not being deleted and not finished. */
export function isPodActive(pod: IPod): boolean {
  const phase = pod.status?.phase;
  return !pod.metadata?.deletionTimestamp && phase !== "Succeeded" && phase !== "Failed";
}

const SAFE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/**
 * The `pod-template-hash` label: a 32-bit FNV-1a of the template, its decimal digits spelled in
 * apimachinery's vowel-free alphabet (rand.SafeEncodeString), so names look like `web-5d4f8c9b7`.
 */
export function podTemplateHash(template: unknown): string {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(JSON.stringify(template ?? {}))) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return [...String(h)].map((c) => SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length]).join("");
}

/** A condition list with one condition set, keeping lastTransitionTime when the status did not change. */
export function setCondition<C extends { type: string; status: string; lastTransitionTime?: string; lastUpdateTime?: string }>(list: C[] | undefined, next: C, at: string): C[] {
  const old = (list ?? []).find((c) => c.type === next.type);
  const transition = old && old.status === next.status ? old.lastTransitionTime : at;
  const merged = { ...next, lastTransitionTime: transition } as C;
  return [...(list ?? []).filter((c) => c.type !== next.type), merged];
}

/** Drops zero counts, as Go's `omitempty` does: a real Deployment with no ready pods has no `readyReplicas`. */
export function omitZero<T extends Record<string, unknown>>(status: T, keep: string[] = []): T {
  return Object.fromEntries(Object.entries(status).filter(([k, v]) => v !== 0 || keep.includes(k))) as T;
}
