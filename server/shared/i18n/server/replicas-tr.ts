/**
 * A replica's state reason as Kule words it (server/cluster/kubernetes/pod-state.ts, a lost
 * replica in server/cluster/replicas.ts), in Turkish like reasons-tr.ts. What Kubernetes or the
 * engine said inside it (`{error}`, `{said}`) stays as it came.
 */
export const REPLICA_TEMPLATES_TR: [en: string, tr: string][] = [
  ["Waiting for Kule to place it on its node.", "Kule'nin onu düğümüne yerleştirmesi bekleniyor."],
  ["Kubernetes cannot place it: {error}", "Kubernetes onu yerleştiremiyor: {error}"],
  ["no node fits", "uygun düğüm yok"],
  ["Waiting for the scheduler.", "Zamanlayıcı bekleniyor."],
  ["The pod failed: {why}", "Pod başarısız oldu: {why}"],
  ["The pod failed.", "Pod başarısız oldu."],
  ["Starting its container.", "Konteyneri başlatılıyor."],
  ["Pulling its image and creating its container.", "İmajı çekiliyor ve konteyneri oluşturuluyor."],
  ["The node cannot pull image {image} ({code}): {error}. Check the image name and tag, and the registry's credentials (imagePullSecrets).", "Düğüm {image} imajını çekemiyor ({code}): {error}. İmaj adını ve etiketini, kayıt defterinin kimlik bilgilerini (imagePullSecrets) kontrol edin."],
  ["no reason given", "neden belirtilmedi"],
  ["Crash loop: {why}. Restarted {count}; Kubernetes waits longer before each restart.", "Çökme döngüsü: {why}. {count} yeniden başlatıldı; Kubernetes her yeniden başlatmadan önce daha uzun bekliyor."],
  ["the engine keeps exiting", "motor sürekli kapanıyor"],
  ["it was killed for using more memory than its limit (OOMKilled, exit code {code}): raise its memory limit or place it on a device with more memory", "bellek sınırından fazlasını kullandığı için sonlandırıldı (OOMKilled, çıkış kodu {code}): bellek sınırını yükseltin ya da daha fazla belleği olan bir aygıta yerleştirin"],
  ["the engine exited with code {code} ({kind}): {said}", "motor {code} koduyla çıktı ({kind}): {said}"],
  ["the engine exited with code {code}: {said}", "motor {code} koduyla çıktı: {said}"],
  ["the engine exited with code {code} ({kind})", "motor {code} koduyla çıktı ({kind})"],
  ["the engine exited with code {code}", "motor {code} koduyla çıktı"],
  ["Kubernetes cannot start its container ({code}): {error}", "Kubernetes konteynerini başlatamıyor ({code}): {error}"],
  ["It stopped: {why}.", "Durdu: {why}."],
  ["Running but not ready: its readiness probe fails, so Kule sends it no requests until it passes again.", "Çalışıyor ama hazır değil: hazır olma yoklaması başarısız; yoklama yeniden geçene kadar Kule ona istek göndermiyor."],
  ["Loading again after {count}.", "{count} sonrasında yeniden yükleniyor."],
  ["Loading the model: waiting for its readiness probe to pass.", "Model yükleniyor: hazır olma yoklamasının geçmesi bekleniyor."],
  ["Lost: the cluster no longer runs this replica ({why}).", "Kayıp: küme bu replikayı artık çalıştırmıyor ({why})."],
  ["the simulator restarted", "simülatör yeniden başladı"],
  ["Kubernetes has no pod for it", "Kubernetes'te bunun için bir pod yok"],
];
