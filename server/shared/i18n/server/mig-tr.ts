/**
 * A MIG change's step names and the lines of its log (server/cluster/mig-change.ts), in Turkish,
 * and its preview (server/cluster/mig-plan.ts: why a layout is refused, a replica that fits nowhere,
 * the capacity missing meanwhile), in Turkish, as templates read like reasons-tr.ts: the server
 * stores English, the page is shown what server-messages.ts makes of it. `{error}` and `{cause}` are translated when Kule wrote them
 * and kept as they came otherwise (a driver's own message).
 */
export const MIG_TEMPLATES_TR: [en: string, tr: string][] = [
  // MIG_STEP_NAMES
  ["start elsewhere", "başka yerde başlat"],
  ["wait ready", "hazır olmalarını bekle"],
  ["shift traffic and drain", "trafiği aktar ve boşalt"],
  ["re-partition", "MIG bölümlemesini değiştir"],
  ["move back", "geri taşı"],
  ["wait ready on the new layout", "yeni düzende hazır olmalarını bekle"],
  ["drain the temporary replicas", "geçici replikaları boşalt"],
  // The log, a line per step done: "<step>: <what happened>".
  ["applied: {layouts}", "uygulandı: {layouts}"],
  ["cancelled by {email}; {n} replica(s) it had started stopped", "{email} tarafından iptal edildi; değişikliğin başlattığı {n} replika durduruldu"],
  ["{n} replica(s) starting elsewhere: {moves}", "{n} replika başka yerde başlatılıyor: {moves}"],
  ["{n} replica(s) ready", "{n} replika hazır"],
  ["traffic shifted; {n} replica(s) drained (in-flight streams finished) and stopped", "trafik aktarıldı; {n} replika boşaltıldı (süren akışlar tamamlandı) ve durduruldu"],
  ["re-partitioned: {layouts}", "MIG bölümlemesi değiştirildi: {layouts}"],
  ["{n} replica(s) starting on the new layout", "{n} replika yeni düzende başlatılıyor"],
  ["{step}: {detail}", "{step}: {detail}"],
  // Why a change failed.
  ['step "{step}" failed: {error}', '"{step}" adımı başarısız oldu: {error}'],
  ["replica {id} did not become ready: {cause}", "{id} replikası hazır hale gelmedi: {cause}"],
  // server/cluster/mig.ts validateMigLayout: why NVIDIA's rules refuse a layout.
  ["{profile} is not a profile of this GPU ({profiles})", "{profile} bu GPU'nun profillerinden biri değil ({profiles})"],
  ["{profile} can start only at slot {starts}, not {slot}", "{profile} yalnızca {starts} yuvasında başlayabilir, {slot} yuvasında değil"],
  ["at most {n} × {profile} per GPU", "GPU başına en fazla {n} × {profile}"],
  ["{profile} at slot {slot} runs past the last memory slot", "{slot} yuvasındaki {profile} son bellek yuvasını aşıyor"],
  ["{profile} at slot {slot} overlaps {other} on memory slot {s}", "{slot} yuvasındaki {profile}, {s} numaralı bellek yuvasında {other} ile çakışıyor"],
  ["the instances need {n} compute slices, more than a GPU's 7", "örnekler {n} hesaplama dilimi gerektiriyor, bir GPU'nun 7 diliminden fazla"],
  // server/cluster/mig-plan.ts: the preview's refusals and the capacity missing meanwhile.
  ["{node} GPU {index}: {problems}", "{node} GPU {index}: {problems}"],
  ["{endpoint} {version} on {from} cannot be placed elsewhere: {why}", "{from} üzerindeki {endpoint} {version} başka bir yere yerleştirilemiyor: {why}"],
  ["needs {need} and no free device of pool {pool} outside the GPUs being changed holds it (the largest free one has {size})", "{need} gerekiyor ve {pool} havuzunda, değiştirilen GPU'lar dışındaki hiçbir boş aygıt bunu alamıyor (en büyük boş aygıtta {size} var)"],
  ["needs {need} and no free device of pool {pool} outside the GPUs being changed holds it (none is free)", "{need} gerekiyor ve {pool} havuzunda, değiştirilen GPU'lar dışındaki hiçbir boş aygıt bunu alamıyor (hiçbiri boş değil)"],
  ["{n} GPU(s), {size}, out of service while re-partitioned; {m} replica(s) keep serving from where they move first, so no version loses a replica meanwhile", "{n} GPU, {size}, yeniden bölümlenirken hizmet dışı; {m} replika önce taşındıkları yerden hizmet vermeyi sürdürür, böylece bu arada hiçbir sürüm replika kaybetmez"],
  // server/cluster/kubernetes: what the GPU Operator's MIG manager cannot do, and where it says why it failed.
  ["the GPU Operator's MIG manager cannot fit these instances on one GPU", "GPU Operator'ın MIG yöneticisi bu örnekleri tek bir GPU'ya sığdıramıyor"],
  ["the GPU Operator's MIG manager chooses the slots itself (largest instance first, lowest free slot): it would lay these out as {placed}, not {layout}. Choose those slots.", "GPU Operator'ın MIG yöneticisi yuvaları kendisi seçer (önce en büyük örnek, en düşük boş yuva): bunları {layout} olarak değil, {placed} olarak yerleştirirdi. Bu yuvaları seçin."],
  ["the MIG manager on {node} reports failed; why is in its log (kubectl -n gpu-operator logs the nvidia-mig-manager pod on {node})", "{node} üzerindeki MIG yöneticisi başarısız olduğunu bildiriyor; nedeni günlüğünde (kubectl -n gpu-operator logs ile {node} üzerindeki nvidia-mig-manager pod'unun günlüğüne bakın)"],
];
