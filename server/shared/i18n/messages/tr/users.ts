import type { Messages } from "../en/index.ts";
import type { Translation } from "../shape.ts";

export const users = {
  title: "Kullanıcılar ve roller",
  new: "Yeni kullanıcı",
  intro: "Kimler oturum açabilir ve her rol neler yapabilir.",
  loading: "kullanıcılar",
  empty: "Kullanıcı yok",
  user: "Kullanıcı",
  role: "Rol",
  tenant: "Kiracı",
  roleOf: "{email} kullanıcısının rolü",
  tenantNeeded: "Kiracı kullanıcılarını, kiracılarını seçerek “Yeni kullanıcı” ile oluşturun.",
  hints: {
    admin: "kullanıcılar, kiracılar ve fiyatlar dahil her şey",
    operator: "modeller, uç noktalar, dağıtımlar ve küme",
    tenant: "yalnızca kendi kiracısının anahtarları, kullanımı ve maliyeti",
    auditor: "salt okunur: çağrı kayıtları ve denetim olayları",
  },
  create: {
    title: "Yeni kullanıcı",
    created: "{email} artık oturum açabilir",
    email: "E-posta",
    name: "Ad",
    password: "İlk parola",
    passwordHint: "En az 10 karakter",
    chooseTenant: "Bir kiracı seçin…",
    submit: "Kullanıcı oluştur",
  },
} satisfies Translation<Messages["users"]>;
