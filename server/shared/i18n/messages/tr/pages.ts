import type { Messages } from "../en/index.ts";
import type { Translation } from "../shape.ts";

export const pages = {
  overview: { label: "Genel bakış", what: "genel bakış" },
  models: { label: "Modeller", what: "model kaydı" },
  endpoints: { label: "Uç noktalar", what: "uç noktalar" },
  cluster: { label: "Küme", what: "küme" },
  gpuMetrics: { label: "GPU metrikleri", what: "GPU metrikleri" },
  alerts: { label: "Uyarılar", what: "uyarılar, alıcılar ve susturmalar" },
  explore: { label: "Metrik keşfi", what: "ham PromQL" },
  tenants: { label: "Kiracılar", what: "kiracı listesi" },
  usage: { label: "Kullanım ve maliyet", what: "kullanım ve maliyet" },
  costs: { label: "Maliyetler", what: "maliyetler" },
  planner: { label: "Kapasite planlayıcı", what: "kapasite planlayıcı" },
  apiKeys: { label: "API anahtarları", what: "API anahtarları" },
  users: { label: "Kullanıcılar ve roller", what: "kullanıcılar ve roller" },
  audit: { label: "Denetim kaydı", what: "denetim kaydı" },
  callLog: { label: "Çağrı kaydı", what: "çağrı kaydı" },
  kvkk: { label: "KVKK", what: "KVKK kayıtları" },
  applications: { label: "Başvurular", what: "ilgili kişi başvuruları" },
  controller: { label: "Verileriniz (KVKK)", what: "verilerinizin işleme kaydı" },
  kvkkPolicy: { label: "Saklama ve imha politikası", what: "saklama ve imha politikası" },
  otherTenant: { label: "Kiracı", what: "başka bir kiracının sayfası" },
  signIn: { label: "Giriş", what: "giriş sayfası" },
} satisfies Translation<Messages["pages"]>;
