import type { Messages } from "../en/index.ts";
import type { Translation } from "../shape.ts";

export const kvkkController = {
  registrationTitle: "Sicil kaydı ve sözleşme",
  verbis: "VERBİS kayıt numarası (md. 16)",
  agreement: "Platformla veri işleme sözleşmesi (md. 12(2))",
  signedOn: "{date} tarihinde imzalandı",
  notRecorded: "henüz kaydedilmedi: operatörünüzden kaydetmesini isteyin",
  special: "Özel nitelikli kişisel veriler (md. 6)",
  specialNone: "işaretlenmedi",
  specialValue: "{category}: çağrılarınız kendi anahtarlarıyla saklanır; platform personeli bunları maskeli görür, özel nitelikli veri yetkisi olan yöneticiler dışında",
  specialConsent: "bir güvence ve {ref} altında kayıtlı md. 6(3) şartıyla yurt dışına aktarım",
  specialTurkeyOnly: "Türkiye'de tutulur: yurt dışına aktarım için md. 6(3) şartı kaydedilmedi",
  retentionTitle: "Çağrı kaydınızın saklama süresi",
  inForce: "Çağrılarınızın kayıtları {days, plural, one {# gün} other {# gün}} saklanır, ardından {method} yoluyla imha edilir.",
  days: "Saklanacak gün (boş: platformun süresi)",
  range: "en fazla {max} gün, platformun süresi",
  rangeWithMin: "{min} gün (5651 sayılı Kanun) ile {max} gün (platformun süresi) arasında",
  rangeSpecial: "en fazla {max} gün: çağrılarınız özel nitelikli kişisel veri içerir (KVKK md. 6)",
  specialEndpoints: "{endpoints} uç noktalarına yapılan çağrılar (özel nitelikli kişisel veri, KVKK md. 6), burada ne seçerseniz seçin en fazla {days} gün saklanır.",
  method: "Ardından",
  save: "Saklama süresini kaydet",
  saved: "Saklama süresi kaydedildi: bir sonraki imha bu süreye göre yapılır",
} satisfies Translation<Messages["kvkkController"]>;
