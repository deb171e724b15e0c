import type { Messages } from "../en/index.ts";
import type { Translation } from "../shape.ts";

export const exportFiles = {
  callLog: {
    requestId: "İstek kimliği",
    tenantId: "Kiracı kimliği",
    apiKeyId: "API anahtarı kimliği",
    endpointId: "Uç nokta kimliği",
    versionId: "Sürüm kimliği",
    replica: "Replika",
    region: "Bölge",
    clientIp: "İstemci IP adresi",
    startedAt: "Başlangıç (UTC)",
    endedAt: "Bitiş (UTC)",
    ttftMs: "İlk token süresi (ms)",
    status: "Durum kodu",
    errorClass: "Hata sınıfı",
    promptTokens: "Girdi token sayısı",
    completionTokens: "Çıktı token sayısı",
    userHash: "Kullanıcı özeti (takma ad)",
  },
  invoice: {
    tenant: "Kiracı",
    month: "Ay",
    endpoint: "Uç nokta",
    model: "Model",
    requests: "İstek sayısı",
    inputTokens: "Girdi tokenları",
    outputTokens: "Çıktı tokenları",
    amount: "Tutar ({currency})",
    total: "Toplam",
  },
} satisfies Translation<Messages["exportFiles"]>;
