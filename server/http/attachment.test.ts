import { describe, expect, it } from "vitest";
import { attachment } from "./attachment.ts";

/** The header's two file names as a browser reads them: `filename="…"` and `filename*=UTF-8''…` decoded. */
function parse(header: string) {
  const m = /^attachment; filename="([^"\\]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]*)$/.exec(header);
  if (!m) throw new Error(`not one attachment header with two names: ${JSON.stringify(header)}`);
  return { ascii: m[1]!, utf8: decodeURIComponent(m[2]!) };
}

describe("Content-Disposition of a download", () => {
  it("names an ordinary file as it is, in both forms", () => {
    expect(attachment("kule-focus-anadolu-bank-2026-11.csv")).toBe(`attachment; filename="kule-focus-anadolu-bank-2026-11.csv"; filename*=UTF-8''kule-focus-anadolu-bank-2026-11.csv`);
  });

  it("keeps a Turkish name in UTF-8 and gives old clients its ASCII letters", () => {
    expect(parse(attachment("kule-focus-Şirket-ığdır.csv"))).toEqual({ ascii: "kule-focus-Sirket-igdir.csv", utf8: "kule-focus-Şirket-ığdır.csv" });
  });

  it("cannot be broken out of by quotes, semicolons, backslashes or line breaks in a name", () => {
    for (const evil of [`a"; filename="evil.exe`, "a\r\nSet-Cookie: session=stolen", "a\\\"b", "a;b=c.csv", "a%22b", "a\u2028b", "ａ＂；ｂ"]) {
      const header = attachment(evil);
      expect(header).not.toMatch(/[\r\n\u0000-\u001f\u007f]/);
      const { ascii, utf8 } = parse(header);
      expect(ascii).not.toMatch(/["\\;%]/);
      expect(utf8).not.toMatch(/["\\\r\n]/);
    }
    expect(parse(attachment(`a"; filename="evil.exe`)).utf8).toBe("a_; filename=_evil.exe");
  });

  it("never names a path, a hidden file or nothing at all", () => {
    for (const evil of ["../../etc/passwd", "..\\..\\boot.ini", "/abs/x.csv", "C:\\x.csv", "．．／x"]) {
      const { ascii, utf8 } = parse(attachment(evil));
      for (const n of [ascii, utf8]) {
        expect(n).not.toMatch(/[/\\]/);
        expect(n.startsWith(".")).toBe(false);
      }
    }
    expect(parse(attachment("../../etc/passwd")).utf8).toBe("_.._etc_passwd");
    expect(parse(attachment("\r\n")).utf8).toBe("download");
  });

  it("holds a name of any length or any Unicode, lone surrogates included, without throwing", () => {
    const { utf8 } = parse(attachment(`${"😀".repeat(300)}\ud800.csv`));
    expect(Array.from(utf8)).toHaveLength(120);
    expect(utf8.isWellFormed()).toBe(true);
  });
});
