"use client";

import { useActionState } from "react";
import { useTranslations } from "use-intl";
import { loginAction, ssoAction, type LoginState } from "./actions";

export function LoginForm({ sso, localPasswords, refusal }: { sso: string | null; localPasswords: boolean; refusal: string | null }) {
  const t = useTranslations("login");
  const [state, action, pending] = useActionState<LoginState, FormData>(loginAction, { error: null, email: "" });
  const error = state.error ?? refusal;
  const passwordForm = (
    <form action={action} className="stack">
      <div className="field">
        <label htmlFor="email">{t("email")}</label>
        <input id="email" name="email" type="email" autoComplete="username" defaultValue={state.email} required />
      </div>
      <div className="field">
        <label htmlFor="password">{t("password")}</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <button className={sso ? undefined : "primary"} type="submit" disabled={pending}>
        {pending ? t("signingIn") : t("signIn")}
      </button>
    </form>
  );
  return (
    <div className="stack">
      {error && (
        <div className="form-error" role="alert" data-testid="login-error">
          {error}
        </div>
      )}
      {sso && (
        <form action={ssoAction}>
          <button className="primary" type="submit" style={{ width: "100%" }}>
            {t("sso.continueWith", { name: sso })}
          </button>
        </form>
      )}
      {localPasswords ? (
        passwordForm
      ) : (
        <details>
          <summary>{t("sso.breakGlass")}</summary>
          {passwordForm}
        </details>
      )}
    </div>
  );
}
