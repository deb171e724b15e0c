import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { headers } from "next/headers";
import { z } from "zod";
import { db } from "../db/client.ts";
import { env } from "../env.ts";
import { authenticate } from "./authenticate.ts";
import { CLIENT_IP_HEADER } from "../http/client-ip-header.ts";
import { SSO_PROVIDER_ID, ssoConfig } from "./sso/config.ts";
import { ssoSignIn, verifyIdToken } from "./sso/sign-in.ts";
import { oidcProvider } from "./sso/provider.ts";
import { sameSiteRedirect } from "./redirect.ts";
import { auditSignIn } from "./sso/audit.ts";

class RefusedSignin extends CredentialsSignin {
  constructor(code: "throttled" | "passwords_off") {
    super();
    this.code = code;
  }
}

const credentials = z.object({ email: z.string().min(1).max(200), password: z.string().min(1).max(200) });
const sso = ssoConfig();

/** The client's address, as the app's server set it (never the client itself): for sign-in audit events. */
async function requestIp(): Promise<string | null> {
  try {
    return (await headers()).get(CLIENT_IP_HEADER) || null;
  } catch {
    return null;
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  secret: env.AUTH_SECRET,
  trustHost: true,
  session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
  // Refusals and provider errors come back to the sign-in page, which says why.
  pages: { signIn: "/login", error: "/login" },
  logger: {
    // A wrong password is an answer, not a server error: keep it out of the error log.
    error(e) {
      if (e.name === "CredentialsSignin" || (e as { type?: string }).type === "CredentialsSignin") return;
      console.error("[auth]", e);
    },
  },
  providers: [
    Credentials({
      credentials: { email: { label: "E-mail" }, password: { label: "Password", type: "password" } },
      async authorize(raw, request) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) return null;
        const res = await authenticate(db(), parsed.data.email, parsed.data.password, env.KULE_LOGIN_FREE_ATTEMPTS, request.headers.get(CLIENT_IP_HEADER) || null);
        if (res.ok) return { id: res.userId, email: res.email, name: res.name };
        if (res.reason !== "invalid") throw new RefusedSignin(res.reason);
        return null;
      },
    }),
    // Single sign-on with any OpenID Connect provider (Keycloak, Entra ID, Google Workspace…), found
    // through its discovery document; PKCE, state and nonce checked on the way back.
    ...(sso ? [oidcProvider(sso)] : []),
  ],
  callbacks: {
    // A callbackUrl planted in a link never leads the browser off Kule.
    redirect: sameSiteRedirect,
    // A single sign-on identity becomes a Kule user here, from its verified ID token, by the admins'
    // rules; a refusal goes back to the sign-in page with its reason's code.
    async signIn({ user, account }) {
      if (!sso || account?.provider !== SSO_PROVIDER_ID) return true;
      const ip = await requestIp();
      const verified = await verifyIdToken(sso, account.id_token);
      if (!verified.ok) {
        await auditSignIn(db(), { method: "sso", ok: false, email: null, ip, code: "invalid_token", reason: verified.reason });
        return "/login?code=invalid_token";
      }
      const result = await ssoSignIn(db(), sso.issuer, verified.claims, ip);
      if (!result.ok) return `/login?code=${result.code}`;
      user.id = result.userId;
      return true;
    },
    jwt({ token, user, account }) {
      // The session names the Kule user, not the provider's subject.
      if (account?.provider === SSO_PROVIDER_ID && user?.id) token.sub = user.id;
      return token;
    },
    // The role is not kept in the token: every request loads it fresh (server/trpc/context.ts),
    // so a role change or removal takes effect at once.
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
});
