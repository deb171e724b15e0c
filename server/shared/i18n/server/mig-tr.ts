/**
 * A MIG change's step names and the lines of its log (server/cluster/mig-change.ts), in Turkish,
 * as templates read like reasons-tr.ts: the server stores English, the page is shown what
 * server-messages.ts makes of it. `{error}` and `{cause}` are translated when Kule wrote them
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
];
