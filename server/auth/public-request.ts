/**
 * The request as the browser addressed it, for next-auth's route handler. Next's NextRequest
 * rewrites a loopback host (127.0.0.1) to "localhost" in its URL, so next-auth's callback would
 * compute a redirect_uri (http://localhost…/api/auth/callback/oidc) other than the one the sign-in
 * sent from the Host header (http://127.0.0.1…), and the provider refuses the code exchange
 * ("redirect_uri mismatch"); the redirects after it would also leave the host whose cookies hold
 * the PKCE and state checks. Rebuilt from the Host header (which next-auth trusts here:
 * trustHost) as a plain Request, its URL is kept as it is.
 */
export async function publicRequest(req: Request): Promise<Request> {
  const seen = new URL(req.url);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? seen.host;
  const proto = req.headers.get("x-forwarded-proto")?.replace(/:$/, "") ?? seen.protocol.replace(/:$/, "");
  const url = new URL(`${seen.pathname}${seen.search}`, `${proto}://${host}`);
  return new Request(url, { method: req.method, headers: req.headers, body: req.method === "POST" ? await req.text() : undefined });
}
