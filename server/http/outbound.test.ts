import http from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressSet } from "./address-set.ts";
import { checkOutboundHost, checkOutboundUrl, guardedLookup, outboundFetch, outboundRefusal, type OutboundPolicy } from "./outbound.ts";

const policy = (allow: string[] = [], own: [number, string][] = [[5432, "PostgreSQL"]]): OutboundPolicy => ({ allow: new AddressSet(allow), ownPorts: new Map(own) });

describe("which addresses an operator's URL may reach", () => {
  it("never reaches cloud metadata or other link-local addresses, in any spelling, even when everything private is allowed", () => {
    const open = policy(["0.0.0.0/0", "::/0"]);
    for (const a of ["169.254.169.254", "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "[::ffff:a9fe:a9fe]", "fe80::1", "fd00:ec2::254", "100.100.100.200", "0.0.0.0", "224.0.0.1"]) expect(outboundRefusal(a, 80, open)?.kind, a).toBe("never");
  });

  it("refuses loopback and private networks unless KULE_OUTBOUND_ALLOW names them", () => {
    for (const a of ["127.0.0.1", "::1", "10.0.0.5", "172.16.3.4", "192.168.1.10", "100.64.0.1", "fd12::1"]) expect(outboundRefusal(a, 8000, policy())?.kind, a).toBe("private");
    const site = policy(["10.0.0.0/8"]);
    expect(outboundRefusal("10.0.0.5", 8000, site)).toBeNull();
    expect(outboundRefusal("192.168.1.10", 8000, site)?.kind).toBe("private");
  });

  it("refuses Kule's own ports on this host even where loopback is allowed", () => {
    const local = policy(["127.0.0.0/8"]);
    expect(outboundRefusal("127.0.0.1", 5432, local)).toMatchObject({ kind: "own", service: "PostgreSQL" });
    expect(outboundRefusal("127.0.0.1", 8000, local)).toBeNull();
  });

  it("lets public addresses through", () => {
    expect(outboundRefusal("93.184.216.34", 443, policy())).toBeNull();
    expect(outboundRefusal("2606:2800:220:1:248:1893:25c8:1946", 443, policy())).toBeNull();
  });
});

describe("checking a URL as it is saved", () => {
  it("names the field and the reason, and says how to allow a private range", async () => {
    await expect(checkOutboundUrl("file:///etc/passwd", "url", policy())).rejects.toMatchObject({ field: "url", message: expect.stringMatching(/http:\/\/ and https:\/\/ URLs only/) });
    await expect(checkOutboundUrl("http://169.254.169.254/latest/meta-data/", "metricsUrl", policy())).rejects.toMatchObject({ field: "metricsUrl", message: expect.stringMatching(/cloud metadata/) });
    await expect(checkOutboundUrl("http://[::ffff:169.254.169.254]/", "url", policy())).rejects.toMatchObject({ message: expect.stringMatching(/never calls it/) });
    await expect(checkOutboundUrl("https://10.0.0.5:8000", "url", policy())).rejects.toMatchObject({ message: expect.stringMatching(/KULE_OUTBOUND_ALLOW=10\.0\.0\.0\/8/) });
    await expect(checkOutboundUrl("https://10.0.0.5:8000", "url", policy(["10.0.0.0/8"]))).resolves.toBeUndefined();
  });

  it("checks what a name resolves to: localhost is this host", async () => {
    await expect(checkOutboundUrl("http://localhost:5432/", "url", policy())).rejects.toMatchObject({ message: expect.stringMatching(/this host or a private network/) });
    await expect(checkOutboundUrl("http://localhost:5432/", "url", policy(["127.0.0.0/8", "::1"]))).rejects.toMatchObject({ message: expect.stringMatching(/own PostgreSQL/) });
    await expect(checkOutboundHost("localhost", 25, "settings", policy())).rejects.toMatchObject({ field: "settings" });
  });
});

describe("checking again when Kule connects", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end("reached"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const get = (p: OutboundPolicy) => {
    const dispatcher = new Agent({ connect: { lookup: guardedLookup(p, port) } });
    return request(`http://localhost:${port}/`, { dispatcher }).then(async (r) => r.body.text()).finally(() => dispatcher.close());
  };

  it("refuses a name that resolves to a refused address at connect time (DNS rebinding after the save)", async () => {
    await expect(get(policy())).rejects.toThrow(/this host or a private network/);
  });

  it("connects where the policy allows", async () => {
    expect(await get(policy(["127.0.0.0/8", "::1"]))).toBe("reached");
  });
});

describe("a library's own calls (the identity provider's discovery, token and key-set URLs)", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => (req.url === "/hop" ? res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end() : res.end("{}")));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const local = policy(["127.0.0.0/8"]);

  it("refuses a URL the policy forbids before any request, naming the setting", async () => {
    await expect(outboundFetch("KULE_OIDC_ISSUER", local)("http://169.254.169.254/.well-known/openid-configuration")).rejects.toMatchObject({ field: "KULE_OIDC_ISSUER" });
    await expect(outboundFetch("KULE_OIDC_ISSUER", policy())(`${base}/.well-known/openid-configuration`)).rejects.toThrow(/KULE_OUTBOUND_ALLOW/);
  });

  it("calls an allowed URL, and follows no redirect (one into metadata fails)", async () => {
    expect((await outboundFetch("KULE_OIDC_ISSUER", local)(`${base}/.well-known/openid-configuration`)).status).toBe(200);
    await expect(outboundFetch("KULE_OIDC_ISSUER", local)(`${base}/hop`)).rejects.toThrow(/fetch failed|redirect/);
  });
});
