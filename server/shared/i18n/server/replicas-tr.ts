/**
 * A replica's state reason as Kule words it (server/cluster/kubernetes/pod-state.ts and
 * replica-book.ts, the external driver's health checks, the simulator's engines, a lost replica in
 * server/cluster/replicas.ts), in Turkish like reasons-tr.ts. What Kubernetes, CUDA or the engine
 * said inside it (`{error}`, `{said}`, "CUDA out of memory") stays as it came.
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
  // server/cluster/kubernetes/replica-book.ts
  ["Waiting for Kubernetes to create its pod.", "Kubernetes'in pod'unu oluşturması bekleniyor."],
  ["Its pod was deleted by Kubernetes (evicted or its node lost); waiting for the replacement.", "Pod'u Kubernetes tarafından silindi (tahliye edildi ya da düğümü kaybedildi); yerine yenisi bekleniyor."],
  ["Its node {node} is not ready ({problem}): Kule sends it no requests until the node is back.", "{node} düğümü hazır değil ({problem}): düğüm geri gelene kadar Kule ona istek göndermiyor."],
  ["no Ready condition", "Ready koşulu yok"],
  // server/cluster/external-driver.ts: a server Kule only routes to, and its health checks.
  ["Deregistered: Kule no longer routes to this server (it keeps running; Kule does not manage it).", "Kaydı silindi: Kule artık bu sunucuya yönlendirmiyor (sunucu çalışmayı sürdürür; Kule onu yönetmez)."],
  ["{path} answered {status}", "{path}, {status} yanıtını verdi"],
  ["no answer from {url} ({cause})", "{url} yanıt vermiyor ({cause})"],
  // server/cluster/sim/cluster.ts: a simulated engine's end, its CUDA message first as CUDA writes it.
  ["torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {alloc} GiB (weights {w} GiB + KV cache for {n} tokens). Device has a total capacity of {total} GiB of which {free} GiB is free.", "torch.OutOfMemoryError: CUDA out of memory. {alloc} GiB ayrılmak istendi (ağırlıklar {w} GiB + {n} token için KV önbelleği). Aygıtın toplam kapasitesi {total} GiB, bunun {free} GiB'ı boş."],
  ["Engine process exited unexpectedly (killed by signal 9).", "Motor süreci beklenmedik biçimde sonlandı (9 sinyaliyle öldürüldü)."],
  ["CUDA error: unspecified launch failure (GPU {gpu} reported XID {xid}).", "CUDA error: unspecified launch failure (GPU {gpu}, XID {xid} bildirdi)."],
  ["NCCL error: unhandled cuda error (GPU {gpu} of {node} reported XID {xid}); the whole group stopped.", "NCCL error: unhandled cuda error ({node} düğümündeki GPU {gpu}, XID {xid} bildirdi); grubun tamamı durdu."],
  ["Node {node} is down.", "{node} düğümü kapalı."],
];
