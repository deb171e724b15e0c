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
    passwordsOff: "Yerel parolalar kapalı: çoklu oturum açma ile giriş yapın.",
  },
  sso: {
    continueWith: "{name} ile devam et",
    breakGlass: "Parolayla yönetici girişi (acil durum)",
    refused: "Çoklu oturum açma reddedildi. Yeniden deneyin ya da bir yöneticiye başvurun.",
    sessionEnded: "Oturumunuz sona erdi: yeniden giriş yapın.",
    failed: "Çoklu oturum açma tamamlanamadı: kimlik sağlayıcının yanıtı reddedildi. Yeniden deneyin; yine olursa bir yöneticiye bildirin.",
    refusals: {
      no_rule:
        "Kimlik sağlayıcınız oturumunuzu açtı, ancak Kule'nin oturum açma kurallarından hiçbiri gruplarınızla eşleşmiyor; bu yüzden Kule'de size verilecek bir rol yok. Bir yöneticiden gruplarınızdan biri için kural eklemesini isteyin (Kullanıcılar ve roller altında).",
      no_claims: "Kimlik sağlayıcınız, Kule'nin oturum açma kurallarının okuduğu taleplerin (ör. groups) hiçbirini göndermedi. Bir yöneticiden sağlayıcıdaki talep eşlemesini denetlemesini isteyin.",
      tenant_gone: "Gruplarınızın eşlendiği kiracı sonlandırıldı: kişileri artık oturum açamaz.",
      no_email: "Kimlik sağlayıcınız bir e-posta adresi göndermedi. Bir yöneticiden sağlayıcıda Kule için email kapsamını (scope) eklemesini isteyin.",
      email_taken: "E-posta adresiniz, sağlayıcının doğrulamadığı başka bir Kule hesabına ait. Bir yöneticiden hesapları bağlamasını isteyin.",
      invalid_token:
        "Kimlik sağlayıcının yanıtı doğrulanamadı (imzası ya da talepleri tutmuyor), bu yüzden Kule oturumunuzu açmadı. Yeniden deneyin; yine olursa bir yöneticiye bildirin.",
    },
  },
} satisfies Translation<Messages["login"]>;
