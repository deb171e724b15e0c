import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CoreV1Api, makeInformer, type KubeConfig, type V1ConfigMap } from "@kubernetes/client-node";
import { startStandIn, type StandIn } from "./index.ts";
import { recordWatch, waitFor } from "./test-kit.ts";

let standIn: StandIn;
let kc: KubeConfig;
let core: CoreV1Api;
let nsCount = 0;

beforeAll(async () => {
  standIn = await startStandIn({ kubelet: false, migApplier: false, bookmarkIntervalMs: 50 });
  kc = standIn.kubeConfig();
  core = kc.makeApiClient(CoreV1Api);
});
afterAll(() => standIn.stop());

/** A namespace of its own per test, so watches see only that test's objects. */
async function namespace(): Promise<string> {
  const name = `w${++nsCount}`;
  await core.createNamespace({ body: { metadata: { name } } });
  return name;
}

const cm = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}): V1ConfigMap => ({ metadata: { name, labels }, data });
const summary = (events: { type: string; object: { metadata?: { name?: string } } }[]) => events.map((e) => `${e.type} ${e.object.metadata?.name}`);

describe("list, then watch from the list's resourceVersion", () => {
  it("sees creates, updates and deletes in the order they happened, with rising resourceVersions", async () => {
    const ns = await namespace();
    await core.createNamespacedConfigMap({ namespace: ns, body: cm("existing") });
    const list = await core.listNamespacedConfigMap({ namespace: ns });
    const w = await recordWatch(kc, `/api/v1/namespaces/${ns}/configmaps`, { resourceVersion: list.metadata!.resourceVersion! });
    await core.createNamespacedConfigMap({ namespace: ns, body: cm("a") });
    await core.patchNamespacedConfigMap({ namespace: ns, name: "a", body: [{ op: "add", path: "/data", value: { k: "v" } }] });
    await core.createNamespacedConfigMap({ namespace: ns, body: cm("b") });
    await core.deleteNamespacedConfigMap({ namespace: ns, name: "a" });
    await waitFor("four events", () => w.events.length >= 4);
    expect(summary(w.events)).toEqual(["ADDED a", "MODIFIED a", "ADDED b", "DELETED a"]);
    const rvs = w.events.map((e) => Number(e.object.metadata!.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((x, y) => x - y));
    expect(rvs[0]).toBeGreaterThan(Number(list.metadata!.resourceVersion));
    expect(w.events[0]!.object.kind).toBe("ConfigMap");
    w.abort();
  });

  it("accepts watch=1 and streams one JSON event per line", async () => {
    const ns = await namespace();
    await core.createNamespacedConfigMap({ namespace: ns, body: cm("one") });
    const abort = new AbortController();
    const res = await fetch(`${standIn.url}/api/v1/namespaces/${ns}/configmaps?watch=1`, { signal: abort.signal });
    expect([res.status, res.headers.get("content-type"), res.headers.get("transfer-encoding")]).toEqual([200, "application/json", "chunked"]);
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
    expect(JSON.parse(text.split("\n")[0]!)).toMatchObject({ type: "ADDED", object: { kind: "ConfigMap", metadata: { name: "one", namespace: ns } } });
    abort.abort();
  });

  it("without a resourceVersion starts with the current objects as ADDED; with a selector, an object leaving it is DELETED", async () => {
    const ns = await namespace();
    await core.createNamespacedConfigMap({ namespace: ns, body: cm("gpu-1", { tier: "gpu" }) });
    const w = await recordWatch(kc, `/api/v1/namespaces/${ns}/configmaps`, { labelSelector: "tier=gpu" });
    await waitFor("the initial ADDED", () => w.events.length >= 1);
    await core.patchNamespacedConfigMap({ namespace: ns, name: "gpu-1", body: [{ op: "replace", path: "/metadata/labels/tier", value: "cpu" }] });
    await core.createNamespacedConfigMap({ namespace: ns, body: cm("cpu-1", { tier: "cpu" }) });
    await core.patchNamespacedConfigMap({ namespace: ns, name: "cpu-1", body: [{ op: "replace", path: "/metadata/labels/tier", value: "gpu" }] });
    await waitFor("three events", () => w.events.length >= 3);
    expect(summary(w.events)).toEqual(["ADDED gpu-1", "DELETED gpu-1", "ADDED cpu-1"]);
    w.abort();
  });
});

describe("a resourceVersion older than the retained window", () => {
  it("is 410 Gone before the watch opens, and a relist gives a version to watch from", async () => {
    const ns = await namespace();
    const old = (await core.listNamespacedConfigMap({ namespace: ns })).metadata!.resourceVersion!;
    await core.createNamespacedConfigMap({ namespace: ns, body: cm("after-compaction") });
    standIn.compact();
    const raw = await fetch(`${standIn.url}/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=${old}`);
    expect(raw.status).toBe(410);
    expect(await raw.json()).toMatchObject({ kind: "Status", status: "Failure", reason: "Expired", code: 410 });
    const w = await recordWatch(kc, `/api/v1/namespaces/${ns}/configmaps`, { resourceVersion: old });
    expect(((await w.done) as { statusCode?: number }).statusCode).toBe(410);

    const relist = await core.listNamespacedConfigMap({ namespace: ns });
    expect(relist.items.map((i) => i.metadata!.name)).toEqual(["after-compaction"]);
    const again = await recordWatch(kc, `/api/v1/namespaces/${ns}/configmaps`, { resourceVersion: relist.metadata!.resourceVersion! });
    await core.createNamespacedConfigMap({ namespace: ns, body: cm("next") });
    await waitFor("the watch after relisting", () => again.events.length >= 1);
    expect(summary(again.events)).toEqual(["ADDED next"]);
    again.abort();
  });

  it("ends an open watch with an ERROR event carrying a 410 Expired Status", async () => {
    const ns = await namespace();
    const w = await recordWatch(kc, `/api/v1/namespaces/${ns}/configmaps`, { resourceVersion: String(standIn.store.revision) });
    standIn.expireWatches();
    expect(await w.done).toBeNull();
    expect(w.events).toHaveLength(1);
    expect(w.events[0]).toMatchObject({ type: "ERROR", object: { kind: "Status", apiVersion: "v1", status: "Failure", reason: "Expired", code: 410 } });
    expect(w.events[0]!.object.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
  });

  it("can be refused the way the watch cache does it: a 200 whose only event is the 410 ERROR", async () => {
    const cached = await startStandIn({ kubelet: false, migApplier: false, scheduler: false, expiredWatchAs: "error-event" });
    try {
      const ckc = cached.kubeConfig();
      const old = String(cached.store.revision);
      await ckc.makeApiClient(CoreV1Api).createNamespacedConfigMap({ namespace: "default", body: cm("x") });
      cached.compact();
      const w = await recordWatch(ckc, "/api/v1/namespaces/default/configmaps", { resourceVersion: old });
      expect(await w.done).toBeNull();
      expect(w.events.map((e) => [e.type, e.object.code, e.object.reason])).toEqual([["ERROR", 410, "Expired"]]);
    } finally {
      await cached.stop();
    }
  });
});

describe("quiet watches", () => {
  it("get BOOKMARK events with the current resourceVersion only when they ask for them", async () => {
    const ns = await namespace();
    const rv = String(standIn.store.revision);
    const asked = await recordWatch(kc, `/api/v1/namespaces/${ns}/configmaps`, { resourceVersion: rv, allowWatchBookmarks: true });
    const silent = await recordWatch(kc, `/api/v1/namespaces/${ns}/configmaps`, { resourceVersion: rv });
    await core.createNamespace({ body: { metadata: { name: `${ns}-elsewhere` } } });
    const bookmark = await waitFor("a bookmark", () => asked.events.find((e) => e.type === "BOOKMARK"));
    expect(bookmark.object).toEqual({ kind: "ConfigMap", apiVersion: "v1", metadata: { resourceVersion: String(standIn.store.revision) } });
    expect(Number(bookmark.object.metadata!.resourceVersion)).toBeGreaterThan(Number(rv));
    await new Promise((r) => setTimeout(r, 150));
    expect(silent.events).toEqual([]);
    asked.abort();
    silent.abort();
  });

  it("end cleanly after timeoutSeconds", async () => {
    const ns = await namespace();
    const started = Date.now();
    const w = await recordWatch(kc, `/api/v1/namespaces/${ns}/configmaps`, { resourceVersion: String(standIn.store.revision), timeoutSeconds: 1 });
    expect(await w.done).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });
});

describe("the API server going away and coming back", () => {
  it("is survived by client-node's informer, which relists on the 410 and catches up on what changed meanwhile", async () => {
    const ns = await namespace();
    await core.createNamespacedConfigMap({ namespace: ns, body: cm("kept") });
    await core.createNamespacedConfigMap({ namespace: ns, body: cm("doomed") });
    let lists = 0;
    const informer = makeInformer(kc, `/api/v1/namespaces/${ns}/configmaps`, () => {
      lists++;
      return core.listNamespacedConfigMap({ namespace: ns });
    });
    const log: string[] = [];
    const errors: unknown[] = [];
    informer.on("add", (o) => log.push(`add ${o.metadata!.name}`));
    informer.on("delete", (o) => log.push(`delete ${o.metadata!.name}`));
    // client-node stops an informer on any error but 410; restarting it is the caller's job.
    informer.on("error", (e) => {
      errors.push(e);
      setTimeout(() => void informer.start(), 50);
    });
    await informer.start();
    await waitFor("the initial list", () => log.length === 2);

    await standIn.goAway();
    standIn.api.delete("ConfigMap", ns, "doomed");
    standIn.api.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "made-while-away", namespace: ns } });
    await waitFor("the informer to notice", () => errors.length > 0);
    await standIn.comeBack();
    await waitFor("the relist", () => log.includes("add made-while-away") && log.includes("delete doomed"));
    // The restarted server's watch window begins at its restart: the informer had to list again.
    expect(lists).toBeGreaterThanOrEqual(2);
    await core.createNamespacedConfigMap({ namespace: ns, body: cm("made-after") });
    await waitFor("the watch after the relist", () => log.includes("add made-after"));
    expect(informer.list().map((o) => o.metadata!.name).sort()).toEqual(["kept", "made-after", "made-while-away"]);
    await informer.stop();
  });
});
