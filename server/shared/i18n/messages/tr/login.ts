import type { Messages } from "../en/index.ts";
import type { Translation } from "../shape.ts";

export const login = {
  tagline: "Çıkarım kümenizin kontrol düzlemi",
  email: "E-posta",
  password: "Parola",
  signIn: "Giriş yap",
  signingIn: "Giriş yapılıyor…",
  errors: {
    missing: "E-posta adresinizi ve parolanızı girin.",
    throttled: "Bu e-posta için çok fazla başarısız deneme oldu. Biraz bekleyip yeniden deneyin.",
    wrong: "E-posta ya da parola yanlış.",
  },
} satisfies Translation<Messages["login"]>;
