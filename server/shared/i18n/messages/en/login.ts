export const login = {
  tagline: "Control plane of your inference cluster",
  email: "E-mail",
  password: "Password",
  signIn: "Sign in",
  signingIn: "Signing in…",
  errors: {
    missing: "Enter your e-mail and password.",
    throttled: "Too many failed attempts for this e-mail. Wait a little and try again.",
    wrong: "Wrong e-mail or password.",
    passwordsOff: "Local passwords are turned off: sign in with single sign-on.",
  },
  /** Single sign-on on the sign-in page; refusals are worded by app/login/sign-in-errors.ts's codes. */
  sso: {
    continueWith: "Continue with {name}",
    breakGlass: "Administrator sign-in with password (break-glass)",
    refused: "Single sign-on was refused. Try again, or ask an admin.",
    sessionEnded: "Your session has ended: sign in again.",
    failed: "Single sign-on did not complete: the identity provider's answer was refused. Try again; if it happens again, tell an admin.",
    refusals: {
      no_rule:
        "Your identity provider signed you in, but none of Kule's sign-in rules matches your groups, so Kule has no role for you. Ask an admin to add a rule for one of your groups (under Users & roles).",
      no_claims: "Your identity provider sent none of the claims Kule's sign-in rules read (such as groups). Ask an admin to check the provider's claim mapping.",
      tenant_gone: "The tenant your groups map to has been offboarded: its people can no longer sign in.",
      no_email: "Your identity provider sent no e-mail address. Ask an admin to add the email scope for Kule at the provider.",
      email_taken: "Your e-mail address already belongs to another Kule account that the provider does not vouch for. Ask an admin to link the accounts.",
      invalid_token:
        "The identity provider's answer could not be verified (its signature or claims do not hold), so Kule did not sign you in. Try again; if it happens again, tell an admin.",
    },
  },
};
