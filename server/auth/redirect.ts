/**
 * Where next-auth may send the browser after a sign-in or sign-out (its `redirect` callback, fed the
 * `callbackUrl` a link or form carried): a page of Kule's, or else Kule's home. The address is read
 * the way a browser reads it, so `//evil.example`, `/\evil.example` and `https://kule@evil.example`
 * all count as the other site they lead to; one that does not parse is not an error page either.
 */
export function sameSiteRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  const home = new URL(baseUrl);
  try {
    const target = new URL(url, home);
    return target.origin === home.origin ? target.href : home.href;
  } catch {
    return home.href;
  }
}
