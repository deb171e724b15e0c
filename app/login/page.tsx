import { redirect } from "next/navigation";
import { currentActor } from "@/server/auth/page-guard";
import { db } from "@/server/db/client";
import { authSettings } from "@/server/auth/sso/rules";
import { LoginForm } from "./login-form";
import { signInMessage } from "./sign-in-errors";
import { serverTranslator } from "@/server/i18n/request-locale";
import { LanguageSwitch } from "@/components/i18n/language-switch";
import { titled } from "@/server/i18n/page-title";

export const generateMetadata = titled("signIn");

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ code?: string; error?: string }> }) {
  // Only someone Kule still lets in goes on: a removed or offboarded user's leftover session would
  // bounce between here and the app's layout (which sends it back here) instead of signing in again.
  if (await currentActor()) redirect("/");
  const settings = await authSettings(db());
  const message = signInMessage(await searchParams);
  const t = await serverTranslator();
  const refusal = message && t(`login.${message}`);
  return (
    <main className="login">
      <div className="card">
        <h1>Kule</h1>
        <p>{t("login.tagline")}</p>
        <LoginForm sso={settings.sso?.name ?? null} localPasswords={settings.localPasswords || !settings.sso} refusal={refusal} />
        <LanguageSwitch />
      </div>
    </main>
  );
}
