import { describe, expect, it } from "vitest";
import { publicRequest } from "./public-request.ts";

describe("the request next-auth sees", () => {
  it("keeps the host the browser used, not Next's 'localhost' for a loopback address", async () => {
    const req = new Request("http://localhost:3200/api/auth/callback/oidc?code=c&state=s", { headers: { host: "127.0.0.1:3200" } });
    expect((await publicRequest(req)).url).toBe("http://127.0.0.1:3200/api/auth/callback/oidc?code=c&state=s");
  });

  it("follows a proxy's forwarded host and protocol, and keeps a POST's body", async () => {
    const req = new Request("http://localhost:3000/api/auth/signin/oidc", { method: "POST", body: "csrfToken=t", headers: { host: "10.0.0.2:3000", "x-forwarded-host": "kule.example.com", "x-forwarded-proto": "https" } });
    const out = await publicRequest(req);
    expect(out.url).toBe("https://kule.example.com/api/auth/signin/oidc");
    expect(await out.text()).toBe("csrfToken=t");
  });
});
