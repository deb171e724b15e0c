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
  },
};
