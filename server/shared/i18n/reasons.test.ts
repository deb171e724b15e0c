import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decide, type AutoscaleSignalKind, type PolicyView, type TickView } from "../../autoscale/decide.ts";
import { unplaceableReason } from "../../cluster/placement.ts";
import { translateServerMessage } from "./server-messages.ts";
import { REASON_TEMPLATES_TR, reasonValueTr } from "./server/reasons-tr.ts";
import { MIG_TEMPLATES_TR } from "./server/mig-tr.ts";
import { BREACH_TEMPLATES_TR } from "./server/breaches-tr.ts";
import { REPLICA_TEMPLATES_TR } from "./server/replicas-tr.ts";
import { ERROR_TEMPLATES_TR } from "./server/errors-tr.ts";
import { podReplicaState } from "../../cluster/kubernetes/pod-state.ts";
import { chainFinding } from "../../kvkk/breaches.ts";
import { MIG_STEP_NAMES } from "../../cluster/mig-change.ts";
import { englishIn, literals } from "../../test/server-sentences.ts";

const root = path.resolve(import.meta.dirname, "../../..");
/**
 * Where the reasons pages show are composed: a whole file, one function of it, or its lines a
 * pattern picks. A new English sentence in one of them without its template fails the first test.
 */
const SOURCES: [file: string, only?: string | RegExp][] = [
  ["server/autoscale/decide.ts"],
  ["server/cluster/placement.ts", "unplaceableReason"],
  ["server/cluster/placement.ts", "placementReason"],
  ["server/shared/memory-rule.ts", "needText"],
  ["server/shared/memory-rule.ts", "deviceText"],
  ["server/kvkk/breaches.ts", "chainFinding"],
  // A MIG change's step names, its log lines and why it failed.
  ["server/cluster/mig-change.ts", /MIG_STEP_NAMES = |text: `|this\.next\(|this\.end\(|new Error\(/],
  // Its preview: NVIDIA's rules, the plan's refusals and the capacity missing, what the GPU Operator's MIG manager cannot do or why it failed.
  ["server/cluster/mig.ts", "validateMigLayout"],
  ["server/cluster/mig-plan.ts", /problems\.push|return `|does not support/],
  ["server/cluster/kubernetes/mig-plan.ts", "inexpressible"],
  ["server/cluster/kubernetes/kubernetes-driver.ts", /let reason = /],
  // The chain check's findings a breach incident quotes, and why a signed head fails.
  ["server/audit/seal/verify.ts", /bad\(|reason = |\? "rows|: "rows|reason: `|problem: /],
  ["server/audit/seal/heads.ts", /reason: /],
  ["server/rollouts/machine.ts", /note: /],
  // Why a replica is not serving, from each driver.
  ["server/cluster/kubernetes/pod-state.ts", /reason: |return `|const why/],
  ["server/cluster/kubernetes/replica-book.ts", /reason: "|\[state, reason\] = /],
  ["server/cluster/external-driver.ts", /reason: "|reason = `/],
  ["server/cluster/sim/cluster.ts", /failReplicas\(\(|`torch|`KV cache/],
  ["server/cluster/replicas.ts", /reason: `Lost/],
  // Why a capacity plan's candidate cannot serve the forecast, and whether it fits the fleet now.
  ["server/planner/plan.ts", /refused: /],
  ["server/planner/planner.ts", /text: `|why = `|let why = /],
];

/** The English fragments (two words or more) the composing code writes. */
function fragments(): { at: string; text: string }[] {
  return SOURCES.flatMap(([file, only]) => {
    let src = fs.readFileSync(path.join(root, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    if (typeof only === "string") src = src.slice(src.indexOf(`function ${only}(`), src.indexOf("\n}\n", src.indexOf(`function ${only}(`)));
    else if (only) src = src.split("\n").filter((l) => only.test(l)).join("\n");
    return literals(src)
      .map((t) => t.replace(/^[\s:;,.()→*]+|[\s:;,.()→*]+$/g, ""))
      .filter((t) => /[A-Za-z]+\W+[A-Za-z]+/.test(t))
      .map((text) => ({ at: file, text }));
  });
}

const policy = (signal: AutoscaleSignalKind, over: Partial<PolicyView> = {}): PolicyView => ({ minReplicas: 1, maxReplicas: 4, signal, target: signal === "kv_cache_usage" ? 0.7 : 4, scaleUpWindowSeconds: 0, scaleDownWindowSeconds: 0, ...over });
const tick = (over: Partial<TickView>): TickView => ({ now: 1_000_000, ready: 2, starting: 0, value: 4, wake: false, placeable: 10, canaryJudging: false, history: [], ...over });

/** One decision down every branch of decide(), for each signal, and a pool-limited one with the pool's reason after it. */
function reasons(): string[] {
  const out: string[] = [];
  for (const s of ["waiting_per_replica", "kv_cache_usage", "in_flight_per_replica"] as const) {
    const hi = s === "kv_cache_usage" ? 0.95 : 12;
    const lo = s === "kv_cache_usage" ? 0.05 : 0.1;
    const p = policy(s);
    // A scale-up on the signal needs a second reading over the band at the same count: the one before.
    const seen = (from: number) => [{ at: 999_500, desired: 4, from }];
    out.push(
      decide(p, tick({ value: hi })).reason, // one reading: waits for a second
      decide(p, tick({ value: hi, history: seen(2) })).reason, // scale up
      decide(p, tick({ value: hi, starting: 1, placeable: 1, history: seen(3) })).reason, // starting counted, pool-limited
      decide(p, tick({ value: hi, placeable: 0, history: seen(2) })).reason, // pool can place none
      decide(p, tick({ value: hi, canaryJudging: true, history: seen(2) })).reason,
      decide(p, tick({ value: lo, canaryJudging: true })).reason,
      decide(p, tick({ value: lo })).reason, // scale down
      decide(p, tick({ value: null })).reason, // steady, signal unknown
      decide(policy(s, { scaleUpWindowSeconds: 60 }), tick({ value: hi, history: [{ at: 999_000, desired: 2 }, ...seen(2)] })).reason,
      decide(policy(s, { scaleDownWindowSeconds: 300 }), tick({ value: lo, history: [{ at: 999_000, desired: 2 }] })).reason,
      decide(policy(s, { minReplicas: 3 }), tick({ value: 4 })).reason, // warm floor
      decide(policy(s, { maxReplicas: 1 }), tick({ value: 4 })).reason, // ceiling
      decide(policy(s, { minReplicas: 0 }), tick({ ready: 0, value: null, wake: true })).reason, // scale from zero
    );
  }
  const scope = { nodePoolId: "p", poolName: "gpu-a", regionConstraint: null };
  const need = { bytes: 20 * 2 ** 30, weightBytes: 14 * 2 ** 30, kvBytes: 6 * 2 ** 30, kvTokens: 4096, parallelism: { tensor: 1, pipeline: 1 } };
  const held = decide(policy("waiting_per_replica"), tick({ value: 12, placeable: 0, history: [{ at: 999_500, desired: 4, from: 2 }] })).reason;
  out.push(`${held} (${unplaceableReason(0, 1, [], need, scope)})`, `${held} (${unplaceableReason(0, 1, [], need, { ...scope, regionConstraint: "tr-" })})`);
  out.push(`${held} (${unplaceableReason(0, 2, [{ device: { kind: "gpu" }, label: "g0", memoryBytes: 16 * 2 ** 30, region: "tr-ist" } as never], { ...need, bytes: 30 * 2 ** 30 }, scope)})`);
  return out;
}

describe("the reasons pages show, in Turkish", () => {
  it("has a Turkish template for every fragment the autoscaler, placement, MIG changes and previews, the drivers' replica reasons and the chain and head checks write", () => {
    const found = fragments();
    expect(found.length).toBeGreaterThan(20);
    expect(found.filter((f) => f.at.includes("mig-change")).length).toBeGreaterThan(10);
    // A typed error's sentence quoted inside a reason (a GPU without MIG in a preview) is translated by its own template.
    const english = [...REASON_TEMPLATES_TR, ...MIG_TEMPLATES_TR, ...BREACH_TEMPLATES_TR, ...REPLICA_TEMPLATES_TR, ...ERROR_TEMPLATES_TR].map(([en]) => en);
    expect(found.filter(({ text }) => !english.some((en) => en.includes(text)) && reasonValueTr(text) === text).map((f) => `${f.at}: ${f.text}`)).toEqual([]);
  });

  it("translates every decision the autoscaler can make whole, its numbers in place", () => {
    const all = reasons();
    expect(new Set(all.map((r) => r.replace(/[\d.]+/g, "n"))).size).toBeGreaterThan(30);
    const left = all.map((r) => [r, translateServerMessage("tr", r)] as const).filter(([en, tr]) => tr === en || englishIn(tr));
    expect(left).toEqual([]);
  });

  it("reads as Turkish an operator can act on", () => {
    expect(translateServerMessage("tr", "3 → 5: waiting requests per replica 12.00 (target 4.00); 1 still starting counted as capacity; wanted 6, the pool holds only 2 more")).toBe(
      "3 → 5: replika başına bekleyen istek 12,00 (hedef 4,00); başlatılmakta olan 1 replika kapasite olarak sayıldı; 6 replika gerekiyordu, havuz yalnızca 2 replika daha alabiliyor",
    );
    expect(translateServerMessage("tr", "could go to 1 (KV-cache use 5% (target 70%)); waiting out the 300 s scale-down window")).toBe("1 replikaya inilebilir (KV önbellek kullanımı %5 (hedef %70)); 300 sn'lik ölçek küçültme penceresinin dolması bekleniyor");
    expect(translateServerMessage("tr", "2 → 3: below the warm floor of 3")).toBe("2 → 3: 3 replikalık sıcak tabanın altında");
    expect(translateServerMessage("en", "steady at 2: KV-cache use 70% (target 70%)")).toBe("steady at 2: KV-cache use 70% (target 70%)");
  });

  it("names a MIG change's steps and tells its log and failure in Turkish, the page's step match kept", () => {
    const log = [
      "applied: node-a GPU 0 → 3g.40gb@0 + 3g.40gb@4; node-a GPU 1 → MIG off",
      `${MIG_STEP_NAMES[0]}: 2 replica(s) starting elsewhere: chat 1.2 → node-b GPU 0, embed 3 → node-b GPU 1 1g.10gb@0`,
      `${MIG_STEP_NAMES[0]}: 0 replica(s) starting elsewhere: none`,
      `${MIG_STEP_NAMES[1]}: 2 replica(s) ready`,
      `${MIG_STEP_NAMES[2]}: traffic shifted; 2 replica(s) drained (in-flight streams finished) and stopped`,
      `${MIG_STEP_NAMES[3]}: re-partitioned: node-a GPU 0 3g.40gb@0 + 3g.40gb@4`,
      `${MIG_STEP_NAMES[4]}: 2 replica(s) starting on the new layout`,
      `${MIG_STEP_NAMES[5]}: 2 replica(s) ready`,
      "cancelled by ops@example.com; 1 replica(s) it had started stopped",
      `step "${MIG_STEP_NAMES[1]}" failed: replica r1 did not become ready: failed`,
    ];
    const said = log.map((l) => translateServerMessage("tr", l));
    expect(said.filter((tr) => englishIn(tr))).toEqual([]);
    expect(MIG_STEP_NAMES.map((s) => translateServerMessage("tr", s)).filter((tr, i) => tr === MIG_STEP_NAMES[i])).toEqual([]);
    // The page finds a step's line by its name at the front.
    expect(said[3]!.startsWith(`${translateServerMessage("tr", MIG_STEP_NAMES[1])}: `)).toBe(true);
    expect(said[0]).toBe("uygulandı: node-a GPU 0 → 3g.40gb@0 + 3g.40gb@4; node-a GPU 1 → MIG kapalı");
    expect(said[9]).toBe('"hazır olmalarını bekle" adımı başarısız oldu: r1 replikası hazır hale gelmedi: başarısız');
    // A driver's own message stays as it came, the sentence around it in Turkish.
    expect(translateServerMessage("tr", `step "${MIG_STEP_NAMES[3]}" failed: nvidia-smi exited with 9`)).toBe('"MIG bölümlemesini değiştir" adımı başarısız oldu: nvidia-smi exited with 9');
  });

  it("tells a breach the chain check opened in Turkish, and leaves what an operator typed as typed", () => {
    const found = chainFinding({ stream: "call_log", start: "2026-12-04T10:00:00.000Z", end: "2026-12-04T11:00:00.000Z", reason: "rows changed before destruction d1 ran" })!;
    expect(translateServerMessage("tr", found.title)).toBe("Çağrı kaydı 2026-12-04T10:00:00.000Z itibarıyla mührüyle artık eşleşmiyor");
    expect(translateServerMessage("tr", found.description)).toBe("Zincir denetiminin bulduğu: d1 imhası yapılmadan önce kayıtlar değiştirilmiş. Kayıtlar Kule dışında değiştirilmiş, silinmiş ya da eklenmiş olabilir.");
    const audit = chainFinding({ stream: "audit_log", start: "2026-12-04T10:00:00.000Z", end: "2026-12-04T11:00:00.000Z", reason: "the seal itself was altered (chain broken)" })!;
    expect([audit.title, audit.description].map((x) => translateServerMessage("tr", x)).filter((tr) => englishIn(tr))).toEqual([]);
    expect(translateServerMessage("tr", "Laptop with an export stolen")).toBe("Laptop with an export stolen");
  });

  it("says why an automatic canary holds its step in Turkish", () => {
    const notes = ["the rollout is paused", "the rollout is rolled back", "metrics unavailable: holding the current step", "holding the step", "waiting for 50 canary requests in the window (have 12)"];
    const said = notes.map((n) => translateServerMessage("tr", n));
    expect(said.filter((tr, i) => tr === notes[i] || englishIn(tr))).toEqual([]);
    expect(said[1]).toBe("dağıtım geri alındı");
    expect(said[4]).toBe("pencerede 50 kanarya isteği bekleniyor (şu an 12)");
  });

  it("tells why a replica is not serving in Turkish, what Kubernetes or the engine said kept as said", () => {
    const pod = (status: object, spec: object = { nodeName: "n1" }) => ({ metadata: {}, spec, status }) as never;
    const container = (state: object, extra: object = {}) => pod({ phase: "Running", containerStatuses: [{ image: "vllm/vllm-openai:v0.9", restartCount: 3, state, ...extra }] });
    const oom = { terminated: { reason: "OOMKilled", exitCode: 137 } };
    const reasons = [
      podReplicaState(pod({}, { schedulingGates: [{ name: "kule" }] }), false),
      podReplicaState(pod({ conditions: [{ type: "PodScheduled", status: "False", reason: "Unschedulable" }] }, {}), false),
      podReplicaState(pod({}, {}), false),
      podReplicaState(pod({ phase: "Failed", containerStatuses: [{ state: oom, restartCount: 0 }] }), false),
      podReplicaState(pod({ phase: "Failed" }), false),
      podReplicaState(pod({ phase: "Running" }), false),
      podReplicaState(container({ waiting: { reason: "ImagePullBackOff" } }), false),
      podReplicaState(container({ waiting: { reason: "CrashLoopBackOff" } }, { lastState: { terminated: { exitCode: 1, reason: "Error", message: "CUDA out of memory\n" } } }), false),
      podReplicaState(container({ waiting: { reason: "CrashLoopBackOff" } }), false),
      podReplicaState(container({ waiting: { reason: "CreateContainerConfigError" } }), false),
      podReplicaState(container({ terminated: { exitCode: 2, reason: "Completed" } }), false),
      podReplicaState(container({ waiting: { reason: "ContainerCreating" } }), false),
      podReplicaState(container({ running: {} }), true),
      podReplicaState(container({ running: {} }), false),
      podReplicaState(container({ running: {} }, { restartCount: 0 }), false),
    ].map((r) => r.reason!);
    reasons.push("Lost: the cluster no longer runs this replica (the simulator restarted).", "Lost: the cluster no longer runs this replica (Kubernetes has no pod for it).");
    expect(new Set(reasons).size).toBe(reasons.length);
    const said = reasons.map((r) => translateServerMessage("tr", r));
    expect(said.filter((tr, i) => tr === reasons[i] || englishIn(tr.replace("CUDA out of memory", "")))).toEqual([]);
    expect(said[7]).toBe("Çökme döngüsü: motor 1 koduyla çıktı: CUDA out of memory. 3 kez yeniden başlatıldı; Kubernetes her yeniden başlatmadan önce daha uzun bekliyor.");
  });
});
