import { describe, expect, it } from "vitest";
import { sameSiteRedirect } from "./redirect.ts";

const baseUrl = "https://kule.example";
const to = (url: string) => sameSiteRedirect({ url, baseUrl });

describe("where a sign-in sends the browser (callbackUrl)", () => {
  it("follows a page of Kule's, by path or by full address", () => {
    expect(to("/endpoints?tab=ready")).toBe("https://kule.example/endpoints?tab=ready");
    expect(to("https://kule.example/costs")).toBe("https://kule.example/costs");
  });

  it.each(["https://evil.example", "//evil.example", "/\\evil.example", "/\t/evil.example", "https://kule.example@evil.example/", "javascript:alert(1)", "http://kule.example/", "https://["])(
    "sends %j to Kule's home instead",
    (url) => expect(to(url)).toBe("https://kule.example/"),
  );
});
