import { redirect } from "next/navigation";
import { auth } from "@/server/auth/next-auth";
import { db } from "@/server/db/client";
import { authSettings } from "@/server/auth/sso/rules";
import { LoginForm } from "./login-form";
import { signInMessage } from "./sign-in-errors";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ code?: string; error?: string }> }) {
  if ((await auth())?.user) redirect("/");
  const settings = await authSettings(db());
  const refusal = signInMessage(await searchParams);
  return (
    <main className="login">
      <div className="card">
        <h1>Kule</h1>
        <p>Control plane of your inference cluster</p>
        <LoginForm sso={settings.sso?.name ?? null} localPasswords={settings.localPasswords || !settings.sso} refusal={refusal} />
      </div>
    </main>
  );
}
