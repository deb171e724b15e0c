import type { Messages } from "../en/index.ts";
import type { Translation } from "../shape.ts";

export const shell = {
  tagline: "çıkarım kontrol düzlemi",
  description: "Yapay zekâ çıkarım kümenizin kontrol düzlemi",
  mainNav: "Ana menü",
  overview: "Genel bakış",
  signOut: "Çıkış yap",
  language: "Dil",
  roles: { admin: "yönetici", operator: "operatör", auditor: "denetçi", tenant: "kiracı" },
  notAllowed: {
    title: "İzin yok",
    body: "Rolünüz {what} sayfasını açamaz. Gerekirse bir yöneticiden rolünüzü değiştirmesini isteyin.",
    back: "Genel bakışa dön",
  },
} satisfies Translation<Messages["shell"]>;
