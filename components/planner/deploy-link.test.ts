import { describe, expect, it } from "vitest";
import { deployHref, readDeployLayout } from "./deploy-link";

describe("the planner's link to a pre-filled deploy form", () => {
  it("carries the version, replicas and split there and back", () => {
    const layout = { modelVersionId: "mv1", replicas: 2, parallelism: { tensor: 4, pipeline: 1 } };
    const href = deployHref("ep1", layout);
    expect(href).toBe("/endpoints/ep1?deploy=mv1&replicas=2&tp=4&pp=1#deploy");
    expect(readDeployLayout(new URL(href, "http://x").searchParams)).toEqual(layout);
  });

  it("reads nothing from a page opened without one, or from numbers the deploy input would refuse", () => {
    expect(readDeployLayout(new URLSearchParams(""))).toBeNull();
    expect(readDeployLayout(new URLSearchParams("deploy=mv1&replicas=0&tp=4&pp=1"))).toBeNull();
    expect(readDeployLayout(new URLSearchParams("deploy=mv1&replicas=2&tp=16&pp=1"))).toBeNull();
    expect(readDeployLayout(new URLSearchParams("deploy=mv1&replicas=2.5&tp=4&pp=1"))).toBeNull();
  });
});
