import { describe, expect, it } from "vitest";
import { pickByPrefix, prefixHash } from "./replica-choice.ts";
import type { ReplicaConfig } from "./config.ts";

const replicas: ReplicaConfig[] = ["r1", "r2", "r3", "r4"].map((id) => ({ id, url: `http://${id}`, region: "tr-ist", verified: true }));
const chat = (system: string, user: string) => ({ messages: [{ role: "system", content: system }, { role: "user", content: user }] });
const systems = Array.from({ length: 20 }, (_, i) => `You are assistant number ${i} of Kule. `.repeat(20));

describe("prefix-aware replica choice", () => {
  it("sends every call sharing a system prompt to one replica while load is even, whatever the user asks", () => {
    const idle = () => 0;
    for (const s of systems) {
      const first = pickByPrefix(replicas, prefixHash(chat(s, "hello")), idle, () => false)!;
      expect(first.reason).toBe("affinity");
      for (const q of ["what is a GPU?", "merhaba", "x".repeat(5000)]) expect(pickByPrefix(replicas, prefixHash(chat(s, q)), idle, () => false)!.replica.id).toBe(first.replica.id);
    }
  });

  it("spreads different prefixes over all replicas", () => {
    const used = new Set(systems.map((s) => pickByPrefix(replicas, prefixHash(chat(s, "hi")), () => 0, () => false)!.replica.id));
    expect(used.size).toBe(4);
  });

  it("moves a prefix on, by load, when its replica is above LOAD_FACTOR × the mean, and keeps off excluded replicas", () => {
    const prefix = prefixHash(chat(systems[0]!, "hi"));
    const home = pickByPrefix(replicas, prefix, () => 0, () => false)!.replica.id;
    const load = (id: string) => (id === home ? 6 : 1);
    const spilled = pickByPrefix(replicas, prefix, load, () => false)!;
    expect(spilled.reason).toBe("load");
    expect(spilled.replica.id).not.toBe(home);
    // The same spill target each time, so the prefix warms one other cache rather than all.
    expect(pickByPrefix(replicas, prefix, load, () => false)!.replica.id).toBe(spilled.replica.id);
    expect(pickByPrefix(replicas, prefix, () => 0, (id) => id === home)!.replica.id).not.toBe(home);
    expect(pickByPrefix(replicas, prefix, () => 0, () => true)).toBeNull();
  });

  it("reads a KServe call's prompt from its first text tensor, so Triton's text_input is routed like a chat prompt", () => {
    const text = (prompt: string) => ({ inputs: [{ name: "text_input", datatype: "BYTES", shape: [1], data: [prompt] }] });
    expect(prefixHash(text(systems[3]! + "hello"))).toBe(prefixHash(text(systems[3]! + "merhaba")));
    expect(prefixHash(text(systems[3]!))).not.toBe(prefixHash(text(systems[4]!)));
    expect(prefixHash({ inputs: [{ name: "images", datatype: "UINT8", shape: [1, 2], data: [1, 2] }] })).toBeNull();
  });

  it("routes calls without a prompt by load", () => {
    expect(prefixHash({ input: "embed me" })).toBeNull();
    const pick = pickByPrefix(replicas, null, (id) => (id === "r3" ? 0 : 2), () => false)!;
    expect(pick).toEqual({ replica: replicas[2], reason: "load" });
  });
});
