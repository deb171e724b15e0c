import { ApiException, AppsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, KubernetesObjectApi, PatchStrategy, Watch, type KubernetesObject } from "@kubernetes/client-node";
import { errorFromStatus, UnavailableError, type DomainError } from "../../errors.ts";
import type { KubeObj } from "./kube-types.ts";

export type JsonPatchOp = { op: "test" | "add" | "replace" | "remove"; path: string; value?: unknown };

/** Kule's field manager: server-side apply records what Kule owns under this name. */
export const FIELD_MANAGER = "kule";

/** The Status message of a failed call; client-node hands its body over as raw JSON text. */
function statusMessage(e: ApiException<unknown>): string {
  const body = e.body;
  try {
    const status = (typeof body === "string" ? JSON.parse(body) : body) as { message?: string };
    if (status?.message) return status.message;
  } catch {
    // not JSON: fall through to the HTTP status
  }
  return `the Kubernetes API server answered ${e.code}`;
}

/**
 * The calls the driver makes through @kubernetes/client-node, with the API server's refusals
 * turned into Kule's typed errors (409 → conflict, 404 → not found, 422 → invalid) and a dead
 * connection into "unavailable". Counts its requests, so tests and benchmarks can hold the driver
 * to LIST + WATCH rather than polling.
 */
export class KubeClient {
  readonly objects: KubernetesObjectApi;
  readonly watch: Watch;
  private readonly core: CoreV1Api;
  private readonly apps: AppsV1Api;
  private readonly custom: CustomObjectsApi;
  requests = 0;

  constructor(readonly kc: KubeConfig) {
    this.objects = KubernetesObjectApi.makeApiClient(kc);
    this.core = kc.makeApiClient(CoreV1Api);
    this.apps = kc.makeApiClient(AppsV1Api);
    this.custom = kc.makeApiClient(CustomObjectsApi);
    this.watch = new Watch(kc);
  }

  get server(): string {
    return this.kc.getCurrentCluster()?.server ?? "(no cluster)";
  }

  translate(e: unknown): DomainError | unknown {
    if (e instanceof ApiException) return errorFromStatus(e.code === 422 ? 400 : e.code, statusMessage(e));
    const code = (e as { code?: string; cause?: { code?: string } })?.code ?? (e as { cause?: { code?: string } })?.cause?.code;
    if (code === "ECONNREFUSED" || code === "ECONNRESET" || code === "ETIMEDOUT" || (e as Error)?.name === "FetchError") {
      return new UnavailableError(`The Kubernetes API server at ${this.server} does not answer (${code ?? (e as Error).message}).`);
    }
    return e;
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    this.requests++;
    try {
      return await run();
    } catch (e) {
      throw this.translate(e);
    }
  }

  /** Server-side apply: idempotent, and optimistic when the object carries a resourceVersion (409 when stale). */
  apply<T extends KubeObj = KubeObj>(obj: KubeObj & object, force = true): Promise<T> {
    return this.call(() => this.objects.patch(obj as KubernetesObject, undefined, undefined, FIELD_MANAGER, force, PatchStrategy.ServerSideApply) as Promise<T>);
  }

  /** A JSON merge patch (with `metadata.resourceVersion` in it, a stale view is refused with 409). */
  mergePatch<T extends KubeObj>(ref: KubeObj, patch: Record<string, unknown>): Promise<T> {
    const body = { apiVersion: ref.apiVersion, kind: ref.kind, ...patch, metadata: { name: ref.metadata?.name, namespace: ref.metadata?.namespace, ...(patch.metadata as object) } };
    return this.call(() => this.objects.patch(body as KubernetesObject, undefined, undefined, FIELD_MANAGER, undefined, PatchStrategy.MergePatch) as Promise<T>);
  }

  /**
   * A JSON Patch of a Pod, Deployment or InferenceService. With a `test` operation first it is a
   * compare-and-swap on that one field: it applies only if the value is still there (422 otherwise),
   * whatever else (a status, a condition) changed meanwhile.
   */
  jsonPatch<T extends KubeObj>(ref: KubeObj, ops: JsonPatchOp[]): Promise<T> {
    const namespace = ref.metadata!.namespace!;
    const name = ref.metadata!.name!;
    const fieldManager = FIELD_MANAGER;
    // The typed APIs send their body as JSON Patch; KubernetesObjectApi.patch would serialize it as the object.
    if (ref.kind === "Pod") return this.call(() => this.core.patchNamespacedPod({ namespace, name, body: ops, fieldManager }) as unknown as Promise<T>);
    if (ref.kind === "Deployment") return this.call(() => this.apps.patchNamespacedDeployment({ namespace, name, body: ops, fieldManager }) as unknown as Promise<T>);
    const [group, version] = (ref.apiVersion ?? "").split("/");
    return this.call(() => this.custom.patchNamespacedCustomObject({ group: group!, version: version!, namespace, plural: `${ref.kind!.toLowerCase()}s`, name, body: ops, fieldManager }) as Promise<T>);
  }

  /** POST: creates the object, or fails with 409 when it exists. */
  create<T extends KubeObj = KubeObj>(obj: KubeObj & object): Promise<T> {
    return this.call(() => this.objects.create(obj as KubernetesObject, undefined, undefined, FIELD_MANAGER) as Promise<T>);
  }

  read<T extends KubeObj>(ref: KubeObj): Promise<T> {
    return this.call(() => this.objects.read(ref as KubernetesObject & { metadata: { name: string } }) as Promise<T>);
  }

  delete(ref: KubeObj, gracePeriodSeconds?: number): Promise<unknown> {
    return this.call(() => this.objects.delete(ref as KubernetesObject, undefined, undefined, gracePeriodSeconds));
  }

  async list<T extends KubeObj>(apiVersion: string, kind: string, o: { namespace?: string; labelSelector?: string; fieldSelector?: string }): Promise<{ items: T[]; resourceVersion: string }> {
    const items: T[] = [];
    let token: string | undefined;
    let resourceVersion = "";
    do {
      const page = await this.call(() => this.objects.list(apiVersion, kind, o.namespace, undefined, undefined, undefined, o.fieldSelector, o.labelSelector, 500, token));
      for (const item of page.items) items.push({ apiVersion, kind, ...(item as object) } as T);
      resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
      token = page.metadata?._continue || undefined;
    } while (token);
    return { items, resourceVersion };
  }
}
