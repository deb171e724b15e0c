import type { Messages } from "../en/index.ts";
import type { Translation } from "../shape.ts";

export const titles = {
  alerts: "Uyarılar",
  apiKeys: "API anahtarları",
  auditLog: "Denetim kaydı",
  callLog: "Çağrı kaydı",
  cluster: "Küme",
  costs: "Maliyetler",
  dataSubjectsApplications: "İlgili kişi başvuruları",
  endpoint: "Uç nokta",
  endpoints: "Uç noktalar",
  exploreMetrics: "Metrik keşfi",
  gpu: "GPU",
  replicaGpus: "Replika GPU'ları",
  kvkk: "KVKK",
  model: "Model",
  models: "Modeller",
  node: "Düğüm",
  overview: "Genel bakış",
  signIn: "Giriş",
  storageAndDestructionPolicy: "Saklama ve imha politikası",
  tenant: "Kiracı",
  tenants: "Kiracılar",
  usageAndCost: "Kullanım ve maliyet",
  usersRoles: "Kullanıcılar ve roller",
  yourDataKvkk: "Verileriniz (KVKK)",
} satisfies Translation<Messages["titles"]>;
