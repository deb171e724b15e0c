import { describe, expect, it } from "vitest";
import { translateServerMessage } from "./server-messages.ts";
import { numbersTr } from "./server/units.ts";
import { validateMigLayout } from "../../cluster/mig.ts";
import { capacityMissingText, noDeviceWhy, type MigPlan } from "../../cluster/mig-plan.ts";
import { migPlanInLanguage } from "../../cluster/mig-change.ts";
import { inexpressible } from "../../cluster/kubernetes/mig-plan.ts";
import { placementReason } from "../../cluster/placement.ts";
import { englishIn } from "../../test/server-sentences.ts";

const GiB = 2 ** 30;
const tr = (text: string) => translateServerMessage("tr", text);
const layout = (...l: [string, number][]) => l.map(([profile, startSlot]) => ({ profile, startSlot }));
/** Each sentence in Turkish: changed, and no English word of the templates left in it. */
const untranslated = (sentences: string[]) => sentences.filter((s) => tr(s) === s || englishIn(tr(s)));

const need = { bytes: 20.5 * GiB, weightBytes: 14 * GiB, kvBytes: 6.5 * GiB, kvTokens: 4096, parallelism: { tensor: 1, pipeline: 1 } };
const device = { device: { kind: "gpu" as const, gpuId: "g" }, label: "llm-1 GPU 0 3g.40gb@0", memoryBytes: 40 * GiB, region: "tr-ist" };
const scope = { nodePoolId: "p", poolName: "llm", regionConstraint: null };

describe("a MIG preview in Turkish", () => {
  it("says why NVIDIA's rules refuse a layout", () => {
    const refusals = [
      ...validateMigLayout(80, layout(["4g.40gb", 0], ["3g.40gb", 2])),
      ...validateMigLayout(80, layout(["7g.80gb", 0], ["1g.10gb", 7])),
      ...validateMigLayout(80, layout(["3g.20gb", 0])),
      ...validateMigLayout(80, layout(...Array.from({ length: 8 }, (_, i): [string, number] => ["1g.10gb", i]))),
    ];
    expect(new Set(refusals.map((r) => r.replace(/\d/g, "")).map((r) => r.split(" ").slice(1, 4).join(" "))).size).toBeGreaterThanOrEqual(5);
    expect(untranslated(refusals)).toEqual([]);
    expect(tr(refusals[0]!)).toBe("3g.40gb yalnızca 0, 4 yuvasında başlayabilir, 2 yuvasında değil");
  });

  it("tells the plan's refusal, where a replica cannot go and the capacity missing, its numbers in Turkish", () => {
    const why = noDeviceWhy(need, "llm", 9.5 * GiB);
    const refused = `gpu-llm-04 GPU 6: ${validateMigLayout(80, layout(["4g.40gb", 0], ["3g.40gb", 2])).join("; ")}. chat 1.2 on node-a GPU 0 3g.40gb@4 cannot be placed elsewhere: ${why}`;
    const missing = capacityMissingText(16, 1234.5 * GiB, 3);
    expect(untranslated([why, noDeviceWhy(need, "llm", 0), refused, missing, inexpressible(80, layout(["1g.10gb", 3]))!, inexpressible(80, layout(["7g.80gb", 0], ["7g.80gb", 0]))!])).toEqual([]);
    expect(tr(missing)).toBe("16 GPU, 1.234,5 GiB, yeniden bölümlenirken hizmet dışı; 3 replika önce taşındıkları yerden hizmet vermeyi sürdürür, böylece bu arada hiçbir sürüm replika kaybetmez");
    // The version stays 1.2; the sizes are written 20,5 GiB.
    expect(tr(refused)).toContain(". node-a GPU 0 3g.40gb@4 üzerindeki chat 1.2 başka bir yere yerleştirilemiyor: 20,5 GiB (ağırlıklar 14,0 GiB + 4.096 token için KV önbelleği 6,5 GiB) gerekiyor");
    expect(tr(refused)).toMatch(/^gpu-llm-04 GPU 6: 3g\.40gb yalnızca 0, 4 yuvasında başlayabilir/);
  });

  it("hands the page a plan in the reader's language, and English unchanged", () => {
    const reason = placementReason(device, need, scope, "auto", 1);
    const plan: MigPlan = {
      gpus: [{ gpuId: "g", label: "llm-1 GPU 0", before: [], after: ["3g.40gb@0"], problems: validateMigLayout(80, layout(["3g.40gb", 2])) }],
      moves: [{ replicaId: "r", endpointVersionId: "v", endpoint: "chat", version: "1.2", from: "llm-1 GPU 0", to: { device: device.device, label: device.label, reason }, why: null, back: null }],
      capacityMissing: { gpus: 1, memoryBytes: 80 * GiB, text: capacityMissingText(1, 80 * GiB, 1) },
      refused: `llm-1 GPU 0: ${validateMigLayout(80, layout(["3g.40gb", 2]))[0]}`,
    };
    const said = migPlanInLanguage("tr", plan);
    expect(untranslated([plan.gpus[0]!.problems[0]!, reason, plan.capacityMissing.text, plan.refused!])).toEqual([]);
    expect([said.gpus[0]!.problems[0], said.moves[0]!.to!.reason, said.capacityMissing.text, said.refused]).toEqual([tr(plan.gpus[0]!.problems[0]!), tr(reason), tr(plan.capacityMissing.text), tr(plan.refused!)]);
    expect(migPlanInLanguage("en", plan)).toBe(plan);
  });
});

describe("why a replica's device was chosen, in Turkish", () => {
  it("reads each way a device is chosen, sizes in Turkish", () => {
    const reasons = [placementReason(device, need, scope, "auto", 2), placementReason(device, need, { ...scope, regionConstraint: "tr-" }, "auto", 0), placementReason(device, need, scope, "hand", 0), placementReason({ ...device, label: "cpu-1 (CPU)" }, { bytes: GiB, weightBytes: GiB, kvBytes: 0, kvTokens: 4096, parallelism: { tensor: 1, pipeline: 1 } }, scope, "auto", 0)];
    expect(untranslated(reasons)).toEqual([]);
    expect(tr(reasons[0]!)).toBe("llm-1 GPU 0 3g.40gb@0: 40,0 GiB, %90 oranında 36,0 GiB kullanılabilir — 20,5 GiB (ağırlıklar 14,0 GiB + 4.096 token için KV önbelleği 6,5 GiB) gerekiyor; llm havuzunda bunu alabilen en küçük boş aygıt (2 daha büyük aygıt boş bırakıldı).");
    expect(tr(reasons[1]!)).toMatch(/; llm havuzunun tr-\* bölgesinde bunu alabilen en küçük boş aygıt\.$/);
  });
});

describe("the drivers' replica reasons and a node's MIG failure, in Turkish", () => {
  it("tells why a replica of the simulator, an external server or a Kubernetes pod is not serving", () => {
    const reasons = [
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.50 GiB (weights 14.00 GiB + KV cache for 4096 tokens). Device has a total capacity of 1,024.00 GiB of which 0.00 GiB is free.",
      "Engine process exited unexpectedly (killed by signal 9).",
      "CUDA error: unspecified launch failure (GPU 3 reported XID 79).",
      "Node gpu-2 is down.",
      "Deregistered: Kule no longer routes to this server (it keeps running; Kule does not manage it).",
      "/health answered 503",
      "no answer from http://10.0.0.7:8000 (Error: connect ECONNREFUSED 10.0.0.7:8000)",
      "Waiting for Kubernetes to create its pod.",
      "Its pod was deleted by Kubernetes (evicted or its node lost); waiting for the replacement.",
      "Its node gpu-1 is not ready (no Ready condition): Kule sends it no requests until the node is back.",
      "the MIG manager on gpu-1 reports failed; why is in its log (kubectl -n gpu-operator logs the nvidia-mig-manager pod on gpu-1)",
    ];
    expect(untranslated(reasons)).toEqual([]);
    // CUDA's own words stay; what Kule and PyTorch count is in Turkish, numbers too.
    expect(tr(reasons[0]!)).toBe("torch.OutOfMemoryError: CUDA out of memory. 20,50 GiB ayrılmak istendi (ağırlıklar 14,00 GiB + 4.096 token için KV önbelleği). Aygıtın toplam kapasitesi 1.024,00 GiB, bunun 0,00 GiB'ı boş.");
    expect(tr(reasons[6]!)).toBe("http://10.0.0.7:8000 yanıt vermiyor (Error: connect ECONNREFUSED 10.0.0.7:8000)");
    expect(tr(reasons[9]!)).toBe("gpu-1 düğümü hazır değil (Ready koşulu yok): düğüm geri gelene kadar Kule ona istek göndermiyor.");
  });
});

describe("why a signed chain head fails, in Turkish", () => {
  it("tells each failure, the times as stored", () => {
    const head = "signed head call_log through 2026-12-04T11:00:00.000Z";
    const problems = [`${head}: its signature does not hold under the seal key`, `${head}: the call_log chain has no segment for the hour the head seals (2026-12-04T10:00:00.000Z)`, `${head}: the call_log chain through 2026-12-04T11:00:00.000Z no longer ends in the signed hash: its seals were rewritten`];
    expect(untranslated(problems)).toEqual([]);
    expect(tr(problems[0]!)).toBe("2026-12-04T11:00:00.000Z tarihine kadarki imzalı call_log zincir başı: imzası mühür anahtarıyla doğrulanmıyor");
  });
});

describe("numbers inside a Turkish sentence", () => {
  it("swaps the separators of a count or a size, and leaves versions, profiles, addresses and times alone", () => {
    expect(numbersTr("1,234.5 GiB")).toBe("1.234,5 GiB");
    expect(numbersTr("12.5%")).toBe("12,5%");
    expect(numbersTr("12.00", true)).toBe("12,00");
    expect(numbersTr("1.2")).toBe("1.2");
    expect(numbersTr("node-a GPU 0 3g.40gb@0, 10.0.0.7:8000 at 2026-12-04T10:00:00.000Z")).toBe("node-a GPU 0 3g.40gb@0, 10.0.0.7:8000 at 2026-12-04T10:00:00.000Z");
    expect(tr("version 1.2 serves 12.5% of traffic: move its traffic to another version first")).toBe("1.2 sürümü trafiğin %12,5 kadarını sunuyor: önce trafiğini başka bir sürüme taşıyın");
    expect(tr("at least 0.5")).toBe("en az 0,5");
    expect(translateServerMessage("en", "steady at 2: waiting requests per replica 1,234.50 (target 4.00)")).toBe("steady at 2: waiting requests per replica 1,234.50 (target 4.00)");
    expect(tr("steady at 2: waiting requests per replica 1,234.50 (target 4.00)")).toBe("2 replikada sabit: replika başına bekleyen istek 1.234,50 (hedef 4,00)");
  });
});
