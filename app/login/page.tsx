import { redirect } from "next/navigation";
import { auth } from "@/server/auth/next-auth";
import { LoginForm } from "./login-form";
import { serverTranslator } from "@/server/i18n/request-locale";
import { LanguageSwitch } from "@/components/i18n/language-switch";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("signIn");

export default async function LoginPage() {
  if ((await auth())?.user) redirect("/");
  const t = await serverTranslator();
  return (
    <main className="login">
      <div className="card">
        <h1>Kule</h1>
        <p>{t("login.tagline")}</p>
        <LoginForm />
        <LanguageSwitch />
      </div>
    </main>
  );
}
