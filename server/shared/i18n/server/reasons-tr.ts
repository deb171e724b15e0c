/**
 * The sentences the server composes and stores for pages to show (the autoscaler's decision
 * reasons, why a replica does not fit a pool, an automatic canary's note), in Turkish, as
 * templates keyed by the English like errors-tr.ts. A `{name}` in PHRASES_TR is itself such a sentence (a reason inside a reason) and
 * is translated in turn; every other `{name}` is a value put back as it came. The server keeps
 * storing English (the audit log is one language); server-messages.ts translates what a procedure
 * returns to a page. server/shared/i18n/reasons.test.ts fails on a shape not here.
 */
export const PHRASES_TR = new Set(["why", "signal", "need", "rule", "reason", "poolWhy", "step", "detail", "problems", "how"]);
/** Phrases translated when Kule wrote them, kept as they came otherwise (a driver's message). */
export const LOOSE_PHRASES_TR = new Set(["error", "cause", "start", "finding", "state", "said", "image", "problem", "device", "url", "through", "hour"]);

export const REASON_TEMPLATES_TR: [en: string, tr: string][] = [
  // server/autoscale/decide.ts: the decision and why.
  ["held at {n}: an automatic canary is judging this version; adding replicas mid-step would skew its comparison ({signal})", "{n} replikada tutuluyor: otomatik bir kanarya bu sürümü değerlendiriyor; adımın ortasında replika eklemek karşılaştırmasını bozar ({signal})"],
  ["held at {n}: an automatic canary is judging this version; removing replicas mid-step would skew its comparison ({signal})", "{n} replikada tutuluyor: otomatik bir kanarya bu sürümü değerlendiriyor; adımın ortasında replika kaldırmak karşılaştırmasını bozar ({signal})"],
  ["wants {n} ({why}) but the pool can place no more replicas", "{n} replika gerekiyor ({why}), ancak havuza daha fazla replika yerleştirilemiyor"],
  ["wants {n} ({signal}) on one reading; waiting for a second at {current}", "{n} replika öneriliyor ({signal}), tek bir ölçüme göre; {current} replikada ikinci bir ölçüm bekleniyor"],
  ["wants {n} ({signal}); waiting out the {s} s scale-up window", "{n} replika öneriliyor ({signal}); {s} sn'lik ölçek büyütme penceresinin dolması bekleniyor"],
  ["could go to {n} ({signal}); waiting out the {s} s scale-down window", "{n} replikaya inilebilir ({signal}); {s} sn'lik ölçek küçültme penceresinin dolması bekleniyor"],
  ["steady at {n}: {signal}", "{n} replikada sabit: {signal}"],
  ["{from} → {to}: {why}", "{from} → {to}: {why}"],
  // server/autoscale/loop.ts: a group replica's step, in GPUs.
  ["{reason}; each replica is {split} over {n} GPUs, {m} GPUs in this step", "{reason}; her replika {n} GPU üzerinde {split}, bu adımda {m} GPU"],
  ["below the warm floor of {n}", "{n} replikalık sıcak tabanın altında"],
  ["above the ceiling of {n}", "{n} replikalık üst sınırın üstünde"],
  ["calls are waiting at the gateway while none is running (scale from zero)", "hiçbir replika çalışmıyorken ağ geçidinde bekleyen çağrılar var (sıfırdan ölçekleme)"],
  ["{signal}, for the whole {s} s scale-down window", "{signal}, {s} sn'lik ölçek küçültme penceresinin tamamı boyunca"],
  ["{n} still starting counted as capacity", "başlatılmakta olan {n} replika kapasite olarak sayıldı"],
  ["wanted {n}, the pool holds only {m} more", "{n} replika gerekiyordu, havuz yalnızca {m} replika daha alabiliyor"],
  ["waiting requests per replica {value} (target {target})", "replika başına bekleyen istek {value} (hedef {target})"],
  ["KV-cache use {value} (target {target})", "KV önbellek kullanımı {value} (hedef {target})"],
  ["requests in flight per replica {value} (target {target})", "replika başına işlenmekte olan istek {value} (hedef {target})"],
  // server/cluster/placement.ts: why the pool cannot hold more (the loop appends it to a pool-limited decision).
  ["only {n} of {m} replica(s) fit: {why}", "{m} replikadan yalnızca {n} tanesi sığıyor: {why}"],
  // The region's form first: "{pool}" alone would take "gpu-a in tr-" whole.
  ["every device of pool {pool} in {region}* is taken or its nodes are down or cordoned", "{pool} havuzunun {region}* bölgesindeki tüm aygıtları kullanımda ya da düğümleri kapalı veya iş almaya kapatılmış (cordon)"],
  ["every device of pool {pool} is taken or its nodes are down or cordoned", "{pool} havuzunun tüm aygıtları kullanımda ya da düğümleri kapalı veya iş almaya kapatılmış (cordon)"],
  ["each replica needs {need} of usable memory; pool {pool} has {n} free device(s) that large (the largest free one has {size} usable)", "her replika {need} kullanılabilir bellek gerektiriyor; {pool} havuzunda bu büyüklükte {n} boş aygıt var (en büyük boş aygıtta {size} kullanılabilir)"],
  // server/cluster/placement.ts placementReason: why a replica's device was chosen (deviceText, then the rule).
  ["{device}: {size}, {usable} usable at {pct}% — needs {need}; {how}.", "{device}: {size}, %{pct} oranında {usable} kullanılabilir — {need} gerekiyor; {how}."],
  ["chosen by hand", "elle seçildi"],
  // server/cluster/placement.ts groupPlacementReason and server/cluster/group-placement.ts: a group's GPUs, or why none fit.
  ["whole GPUs of pool {pool}, region {region}*, NVLink first, on the fullest node that holds the group", "{pool} havuzunun {region}* bölgesinde tam GPU'lar; önce NVLink, grubu alabilen en dolu düğümde"],
  ["whole GPUs of pool {pool}, NVLink first, on the fullest node that holds the group", "{pool} havuzunda tam GPU'lar; önce NVLink, grubu alabilen en dolu düğümde"],
  ["each is {split} over {n} GPUs of {need}; {why}", "her biri {n} GPU üzerinde {split}, {need}; {why}"],
  ["needs {n} free {kind} on one node; the best node ({host}) has {m}", "tek bir düğümde {n} boş {kind} gerekiyor; en iyi düğümde ({host}) {m} tane var"],
  ["needs {n} free {kind} on one node; no node has a free whole GPU", "tek bir düğümde {n} boş {kind} gerekiyor; hiçbir düğümde boş tam GPU yok"],
  ["needs {p} nodes with {n} free {kind} each; no node has {n2} free (the best, {host}, has {m})", "her birinde {n} boş {kind} olan {p} düğüm gerekiyor; hiçbir düğümde {n2} boş yok (en iyisinde, {host}, {m} var)"],
  ["needs {p} nodes with {n} free {kind} each; only {k} node has that ({hosts})", "her birinde {n} boş {kind} olan {p} düğüm gerekiyor; yalnızca {k} düğümde bu kadar var ({hosts})"],
  ["needs {p} nodes with {n} free {kind} each; only {k} nodes have that ({hosts})", "her birinde {n} boş {kind} olan {p} düğüm gerekiyor; yalnızca {k} düğümde bu kadar var ({hosts})"],
  ["each GPU of the group needs {size} usable; the largest free GPU has {usable}", "grubun her GPU'su {size} kullanılabilir bellek gerektiriyor; en büyük boş GPU'da {usable} var"],
  ["the smallest free device of pool {pool}, region {region}* that holds it", "{pool} havuzunun {region}* bölgesinde bunu alabilen en küçük boş aygıt"],
  ["the smallest free device of pool {pool} that holds it", "{pool} havuzunda bunu alabilen en küçük boş aygıt"],
  ["{how} ({others} larger one(s) left free)", "{how} ({others} daha büyük aygıt boş bırakıldı)"],
  // server/shared/memory-rule.ts needText: the memory rule inside a reason.
  ["{size} (the version's stated minimum; {rule})", "{size} (sürümün belirttiği en az bellek; {rule})"],
  ["{size} per GPU at {split} (the version's stated minimum; {rule})", "{split} ile GPU başına {size} (sürümün belirttiği en az bellek; {rule})"],
  ["{size} per GPU at {split} ({rule})", "{split} ile GPU başına {size} ({rule})"],
  ["{size} ({rule})", "{size} ({rule})"],
  ["weights {w} + KV cache for {n} tokens {kv}", "ağırlıklar {w} + {n} token için KV önbelleği {kv}"],
  ["weights {w}", "ağırlıklar {w}"],
  // server/planner/plan.ts and planner.ts: why a candidate cannot serve the forecast, and whether it fits the fleet now.
  ["{size} per GPU (weights and one sequence of {n} tokens) is more than the {usable} usable of a {device}", "GPU başına {size} (ağırlıklar ve {n} tokenlik bir dizi), bir {device} cihazının kullanılabilir {usable} belleğinden fazla"],
  ["the KV cache holds no sequence of {n} tokens beside the weights", "KV önbelleği ağırlıkların yanında {n} tokenlik tek bir dizi bile almıyor"],
  ["a decode step takes {ms} ms even for one sequence; TPOT p99 would be {p99} ms against {slo} ms", "tek bir dizi için bile bir çözümleme adımı {ms} ms sürüyor; TPOT p99 {slo} ms hedefine karşı {p99} ms olur"],
  ["prefill of {n} tokens takes {ms} ms; TTFT p99 would be {p99} ms against {slo} ms", "{n} tokenlik ön doldurma {ms} ms sürüyor; TTFT p99 {slo} ms hedefine karşı {p99} ms olur"],
  ["all {n} replica(s) fit on free GPUs now", "{n} replikanın tamamı şu an boş GPU'lara sığıyor"],
  ["{placed} of {n} replica(s) fit now: {why}", "şu an {n} replikadan {placed} tanesi sığıyor: {why}"],
  ["pool {pool}: {why}", "{pool} havuzu: {why}"],
  ["pool {pool} has {n} free {profile} instance(s)", "{pool} havuzunda {n} boş {profile} örneği var"],
  ["no pool has this GPU kind", "hiçbir havuzda bu GPU türü yok"],
  // server/rollouts/machine.ts: why an automatic canary holds its step (the plan's note).
  ["the rollout is {state}", "dağıtım {state}"],
  ["metrics unavailable: holding the current step", "ölçümler alınamıyor: mevcut adımda bekleniyor"],
  ["holding the step", "adımda bekleniyor"],
  ["waiting for {n} canary requests in the window (have {m})", "pencerede {n} kanarya isteği bekleniyor (şu an {m})"],
  // A pool-limited decision with the pool's reason after it (server/autoscale/loop.ts).
  ["{reason} ({poolWhy})", "{reason} ({poolWhy})"],
];

/** Values a reason carries that are words or formatted for English. */
export function reasonValueTr(value: string): string {
  if (value === "unknown") return "bilinmiyor";
  if (value === "none") return "yok";
  const times = /^(\d+) (time|restart)s?$/.exec(value);
  if (times) return `${times[1]} ${times[2] === "time" ? "kez" : "yeniden başlatma"}`;
  if (/MIG off/.test(value)) return value.replaceAll("MIG off", "MIG kapalı");
  const pct = /^([\d.,]+)%$/.exec(value);
  return pct ? `%${pct[1]}` : value;
}
