"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { signIn, signOut } from "@/server/auth/next-auth";
import { serverTranslator } from "@/server/i18n/request-locale";

export interface LoginState {
  error: string | null;
  email: string;
}

export async function loginAction(_prev: LoginState, form: FormData): Promise<LoginState> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const t = await serverTranslator();
  if (!email || !password) return { error: t("login.errors.missing"), email };
  try {
    await signIn("credentials", { email, password, redirectTo: "/" });
    return { error: null, email };
  } catch (e) {
    if (e instanceof CredentialsSignin && e.code === "throttled") {
      return { error: t("login.errors.throttled"), email };
    }
    if (e instanceof CredentialsSignin && e.code === "passwords_off") {
      return { error: t("login.errors.passwordsOff"), email };
    }
    if (e instanceof AuthError) return { error: t("login.errors.wrong"), email };
    throw e; // the redirect after a successful sign-in travels as an exception
  }
}

/** Off to the identity provider; it sends the user back to /api/auth/callback/oidc. */
export async function ssoAction() {
  await signIn("oidc", { redirectTo: "/" });
}

export async function logoutAction() {
  await signOut({ redirectTo: "/login" });
}
