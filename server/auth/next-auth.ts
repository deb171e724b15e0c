import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { db } from "../db/client.ts";
import { env } from "../env.ts";
import { authenticate } from "./authenticate.ts";

class ThrottledSignin extends CredentialsSignin {
  code = "throttled";
}

const credentials = z.object({ email: z.string().min(1).max(200), password: z.string().min(1).max(200) });

export const { handlers, auth, signIn, signOut } = NextAuth({
  secret: env.AUTH_SECRET,
  trustHost: true,
  session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
  pages: { signIn: "/login" },
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
      async authorize(raw) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) return null;
        const res = await authenticate(db(), parsed.data.email, parsed.data.password, env.KULE_LOGIN_FREE_ATTEMPTS);
        if (res.ok) return { id: res.userId, email: res.email, name: res.name };
        if (res.reason === "throttled") throw new ThrottledSignin();
        return null;
      },
    }),
  ],
  callbacks: {
    // The role is not kept in the token: every request loads it fresh (server/trpc/context.ts),
    // so a role change or removal takes effect at once.
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
});
