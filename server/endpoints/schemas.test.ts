import { describe, expect, it } from "vitest";
import { createEndpointInput } from "./schemas.ts";

describe("endpoint input", () => {
  const base = { name: "Chat", slug: "chat", modelId: "m", modelVersionId: "v", engine: "vllm", nodePoolId: "p", sloAvailabilityPct: 99.9, sloP99LatencyMs: 2000 };
  it("accepts a Turkey-only region prefix and turns an empty one into none", () => {
    expect(createEndpointInput.parse({ ...base, regionConstraint: "tr-" }).regionConstraint).toBe("tr-");
    expect(createEndpointInput.parse({ ...base, regionConstraint: "" }).regionConstraint).toBeNull();
  });
  it("refuses slugs clients could not type as a model name", () => {
    for (const slug of ["Chat", "chat large", "-chat", "chat--large", "c"]) expect(createEndpointInput.safeParse({ ...base, slug }).success).toBe(false);
  });
});
