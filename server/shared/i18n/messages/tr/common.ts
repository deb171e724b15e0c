import type { Messages } from "../en/index.ts";
import type { Translation } from "../shape.ts";

export const common = {
  save: "Kaydet",
  cancel: "Vazgeç",
  close: "Kapat",
  edit: "Düzenle",
  delete: "Sil",
  create: "Oluştur",
  apply: "Uygula",
  tryAgain: "Yeniden dene",
  yes: "Evet",
  no: "Hayır",
  none: "yok",
  all: "Tümü",
  noData: "veri yok",
  loading: "{what} yükleniyor…",
  couldNotLoad: "{what} yüklenemedi",
  serverDidNotAnswer: "Sunucu yanıt vermedi.",
  couldNotRefresh: "{what} yenilenemedi: {reason} Daha önce yüklenenler gösteriliyor.",
  notifications: "Bildirimler",
  states: {
    ready: "hazır",
    pending: "bekliyor",
    loading: "yükleniyor",
    draining: "boşaltılıyor",
    not_ready: "hazır değil",
    failed: "başarısız",
    down: "kapalı",
    stopped: "durduruldu",
    starting: "başlatılıyor",
  },
} satisfies Translation<Messages["common"]>;
