import type { Messages } from "../en/index.ts";
import type { Translation } from "../shape.ts";

export const audit = {
  openEvent: "{action} olayını aç",
  title: "Denetim kaydı",
  intro: "Herkesin yaptığı her değişiklik, öncesi ve sonrasıyla.",
  actionAria: "İşlem şununla başlar",
  actionPlaceholder: "İşlem, örneğin endpoint.",
  actor: "Yapanın e-postası",
  filter: "Süz",
  loading: "denetim olayları",
  emptyTitle: "Eşleşen denetim olayı yok",
  emptyHint: "Operatörlerin ve yöneticilerin yaptığı değişiklikler burada görünür.",
  when: "Zaman",
  who: "Kim",
  action: "İşlem",
  target: "Hedef",
  ip: "IP",
  system: "sistem",
  before: "Önce",
  after: "Sonra",
  older: "Daha eski olaylar",
} satisfies Translation<Messages["audit"]>;
