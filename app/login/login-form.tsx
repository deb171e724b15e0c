"use client";

import { useActionState } from "react";
import { useTranslations } from "use-intl";
import { loginAction, type LoginState } from "./actions";

export function LoginForm() {
  const t = useTranslations("login");
  const [state, action, pending] = useActionState<LoginState, FormData>(loginAction, { error: null, email: "" });
  return (
    <form action={action} className="stack">
      {state.error && (
        <div className="form-error" role="alert" data-testid="login-error">
          {state.error}
        </div>
      )}
      <div className="field">
        <label htmlFor="email">{t("email")}</label>
        <input id="email" name="email" type="email" autoComplete="username" defaultValue={state.email} required />
      </div>
      <div className="field">
        <label htmlFor="password">{t("password")}</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <button className="primary" type="submit" disabled={pending}>
        {pending ? t("signingIn") : t("signIn")}
      </button>
    </form>
  );
}
